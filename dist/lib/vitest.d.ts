// `import 'blocktrace/vitest'`: vitest's expect with toMatchTraceSnapshot and toMatchGasSnapshot (await them).
import type { TraceMatchers } from './index.js';

declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface Matchers<T = any> extends TraceMatchers<Promise<void>> {}
}
