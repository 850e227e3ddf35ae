// `import 'blocktrace/bun'`: bun:test's expect with toMatchTraceSnapshot and toMatchGasSnapshot (await them).
import type { TraceMatchers } from './index.js';

declare module 'bun:test' {
  interface Matchers<T = unknown> extends TraceMatchers<Promise<void>> {}
}
