// src/api/vitest.ts
import { afterAll, expect } from "vitest";
import { gasSnapshotMatcher, reportObsolete, traceSnapshotMatcher, updateMode } from "./index.mjs";
function runner(state, matcher) {
  if (state.isNot) throw new Error(`${matcher}: .not is not supported (a snapshot either matches or says what differs)`);
  if (state.testPath === void 0) throw new Error(`${matcher}: called outside a test (vitest names no test file)`);
  return { testPath: state.testPath, testName: state.currentTestName, update: updateMode(false, state.snapshotState?._updateSnapshot), updateFlag: "vitest -u" };
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
