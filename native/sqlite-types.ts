/**
 * Our own declaration of the SQLite API the project uses. The package's `index.d.ts` is not
 * reachable through its `exports` map under `nodenext` resolution, and published types must not
 * lean on a devDependency, so the seam states the subset it relies on and nothing more.
 */

export interface SqliteRunResult {
  readonly changes: number;
  readonly lastInsertRowid: number | bigint;
}

export interface SqliteColumn {
  readonly name: string;
  readonly column: string | null;
  readonly table: string | null;
  readonly database: string | null;
  readonly type: string | null;
}

export interface SqliteStatement<P extends unknown[] = unknown[], R = unknown> {
  readonly source: string;
  readonly reader: boolean;
  run(...params: P): SqliteRunResult;
  get(...params: P): R | undefined;
  all(...params: P): R[];
  iterate(...params: P): IterableIterator<R>;
  /** Toggles returning the first column only; `R` stays whatever the caller declared. */
  pluck(enabled?: boolean): this;
  raw(enabled?: boolean): this;
  expand(enabled?: boolean): this;
  safeIntegers(enabled?: boolean): this;
  bind(...params: P): this;
  columns(): SqliteColumn[];
}

// biome-ignore lint/suspicious/noExplicitAny: a transaction wraps a function of any arguments.
type AnyFunction = (...args: any[]) => unknown;

export interface SqliteTransaction<F extends AnyFunction> {
  (...args: Parameters<F>): ReturnType<F>;
  deferred(...args: Parameters<F>): ReturnType<F>;
  immediate(...args: Parameters<F>): ReturnType<F>;
  exclusive(...args: Parameters<F>): ReturnType<F>;
}

export interface SqliteFunctionOptions {
  readonly deterministic?: boolean;
  readonly varargs?: boolean;
  readonly directOnly?: boolean;
  readonly safeIntegers?: boolean;
}

export interface SqliteDatabase {
  readonly name: string;
  readonly open: boolean;
  readonly inTransaction: boolean;
  readonly memory: boolean;
  readonly readonly: boolean;
  prepare<P extends unknown[] = unknown[], R = unknown>(sql: string): SqliteStatement<P, R>;
  exec(sql: string): this;
  pragma(source: string, options?: { readonly simple?: boolean }): unknown;
  transaction<F extends AnyFunction>(fn: F): SqliteTransaction<F>;
  function(name: string, options: SqliteFunctionOptions, fn: AnyFunction): this;
  serialize(options?: { readonly attached?: string }): Buffer;
  /** Unsafe mode also lifts SQLite's defensive flag (writes to virtual tables' shadow tables). */
  unsafeMode(enabled?: boolean): this;
  close(): this;
}

export interface SqliteConstructorOptions {
  readonly timeout?: number;
  readonly readonly?: boolean;
  readonly fileMustExist?: boolean;
  readonly nativeBinding?: string;
}

export type SqliteConstructor = new (
  filename: string | Buffer,
  options?: SqliteConstructorOptions,
) => SqliteDatabase;
