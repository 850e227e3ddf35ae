// A WebAssembly file imported `with { type: 'file' }` (Bun): its path, inside the executable once compiled.
declare module '*.wasm' {
  const path: string;
  export default path;
}

// hash-wasm's one-algorithm builds (its own index holds every algorithm's WebAssembly and decodes
// them all when imported, at every start, for the one or two used). Same API as its index.
declare module 'hash-wasm/dist/keccak.umd.min.js' {
  export { createKeccak } from 'hash-wasm';
}
declare module 'hash-wasm/dist/crc32.umd.min.js' {
  export { crc32 } from 'hash-wasm';
}
