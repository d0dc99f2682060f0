// Type declarations for the untyped compressor packages used by the archive worker.

declare module 'libbzip2-wasm' {
  export interface Bzip2Result {
    /** 0 on success, a libbzip2 BZ_* code otherwise. */
    error: number;
    /** A view into the WASM heap: copy it before the next call. */
    output: Uint8Array;
  }
  export interface Bzip2Compressor {
    compressBZ2(data: Uint8Array, blockSize100k: number, workFactor: number): Bzip2Result;
  }
  export interface Bzip2Module extends Bzip2Compressor {
    /** Emscripten makes the module a thenable that resolves to itself. */
    then?: (onReady: (module: Bzip2Module) => void) => void;
  }
  const createBzip2: () => Bzip2Module;
  export default createBzip2;
}

declare module 'snappyjs' {
  /** Raw (unframed) snappy compression; returns the input's type (Uint8Array in, Uint8Array out). */
  export function compress(input: Uint8Array): Uint8Array;
}

declare module 'node-liblzma/wasm/liblzma.wasm' {
  /** The WASM binary, inlined by esbuild's `binary` loader. */
  const bytes: Uint8Array;
  export default bytes;
}
