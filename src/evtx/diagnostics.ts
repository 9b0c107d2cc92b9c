/** Problems found in the input, reported beside the good records; decoding goes on. */
export type DiagnosticCode =
  | 'file.bad_magic'
  | 'file.bad_header_crc'
  | 'file.truncated_chunk'
  | 'file.no_chunks'
  | 'chunk.bad_magic'
  | 'chunk.bad_header_crc'
  | 'chunk.bad_data_crc'
  | 'chunk.bad_free_space_offset'
  | 'record.bad_magic'
  | 'record.bad_size'
  | 'record.bad_binxml'
  | 'record.bad_value';

export interface Diagnostic {
  readonly code: DiagnosticCode;
  readonly message: string;
  /** Index of the 64 KiB chunk in the file (0-based), or -1 for the file header. */
  readonly chunk: number;
  /** Absolute byte offset in the file. */
  readonly offset: number;
  /** The record header's sequence number of the record at fault (as `ParsedRecord.recordNumber`). */
  readonly recordNumber?: number;
  /** Set by the caller that knows the source (a path or a label). */
  readonly file?: string;
  /** Warnings do not cost records (a bad checksum with every record still decoded). */
  readonly severity: 'error' | 'warning';
}
