/** CRC32 (IEEE) from node:zlib, which ships it natively since Node 20.15. */
import { crc32 } from 'node:zlib';

export const zlib_crc32 = (data: Uint8Array, initial = 0): number => crc32(data, initial);
