// src/api/jest.ts
import { expectMatchers, reportObsolete } from "./index.mjs";
var { expect, afterAll } = globalThis;
if (expect === void 0 || afterAll === void 0) {
  throw new Error("blocktrace/jest: jest's global expect and afterAll are missing (is injectGlobals off? then import 'blocktrace/jest' from a file jest sets up with them)");
}
expect.extend(expectMatchers("jest", "jest -u"));
afterAll(() => void reportObsolete());
