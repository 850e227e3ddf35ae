// src/api/jest.ts
import { gasSnapshotMatcher, reportObsolete, traceSnapshotMatcher, updateMode } from "./index.mjs";
function runner(state, matcher) {
  if (state.isNot) throw new Error(`${matcher}: .not is not supported (a snapshot either matches or says what differs)`);
  if (state.testPath === void 0) throw new Error(`${matcher}: called outside a test (jest names no test file)`);
  return { testPath: state.testPath, testName: state.currentTestName, update: updateMode(false, state.snapshotState?._updateSnapshot), updateFlag: "jest -u" };
}
var { expect, afterAll } = globalThis;
if (expect === void 0 || afterAll === void 0) {
  throw new Error("blocktrace/jest: jest's global expect and afterAll are missing (is injectGlobals off? then import 'blocktrace/jest' from a file jest sets up with them)");
}
expect.extend({
  toMatchTraceSnapshot(received, name) {
    return traceSnapshotMatcher(runner(this, "toMatchTraceSnapshot"), received, name);
  },
  toMatchGasSnapshot(received, name, options) {
    return gasSnapshotMatcher(runner(this, "toMatchGasSnapshot"), received, name, options);
  }
});
afterAll(() => void reportObsolete());
