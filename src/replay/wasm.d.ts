// A WebAssembly file imported `with { type: 'file' }` (Bun): its path, inside the executable once compiled.
declare module '*.wasm' {
  const path: string;
  export default path;
}
