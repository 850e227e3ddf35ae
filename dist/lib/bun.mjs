// src/api/bun.ts
import { afterAll, expect } from "bun:test";
import { readFileSync } from "node:fs";
import { gasSnapshotMatcher, reportObsolete, traceSnapshotMatcher, updateMode } from "./index.mjs";
function updateFlag() {
  if (process.env.BLOCKTRACE_UPDATE_SNAPSHOTS === "1") return true;
  try {
    const args = readFileSync("/proc/self/cmdline", "utf8").split("\0");
    return args.includes("-u") || args.includes("--update-snapshots");
  } catch {
    return false;
  }
}
var update = updateMode(updateFlag());
function runner(isNot, matcher) {
  if (isNot) throw new Error(`${matcher}: .not is not supported (a snapshot either matches or says what differs)`);
  return { testPath: Bun.main, update, updateFlag: "bun test --update-snapshots" };
}
expect.extend({
  toMatchTraceSnapshot(received, name) {
    return traceSnapshotMatcher(runner(this.isNot, "toMatchTraceSnapshot"), received, name);
  },
  toMatchGasSnapshot(received, name, options) {
    return gasSnapshotMatcher(runner(this.isNot, "toMatchGasSnapshot"), received, name, options);
  }
});
afterAll(() => void reportObsolete());
