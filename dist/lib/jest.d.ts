// `import 'blocktrace/jest'`: jest's expect with toMatchTraceSnapshot and toMatchGasSnapshot (await them).
import type { TraceMatchers } from './index.js';

declare module 'expect' {
  interface Matchers<R extends void | Promise<void>, T = unknown> extends TraceMatchers<Promise<void>> {}
}

declare global {
  namespace jest {
    interface Matchers<R, T = {}> extends TraceMatchers<Promise<void>> {}
  }
}
