// toMatchTraceSnapshot: a trace pinned as a golden in `__traces__/TEST_FILE/NAME.request.json` +
// `NAME.response.json`, the pair and the pretty layout `record` writes, so `blocktrace check` reads
// the same files. The first run writes it; a later run compares with check's engine (checkAll over
// this one exchange: the same dispatch, differences, placing, decoding and report text); the
// runner's update flag rewrites a differing response in its form, as `check --update` does.
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { compactJson, member, parseWhole } from '../compare/jsonText.ts';
import type { Exchange } from '../golden/layouts.ts';
import { responseBody } from '../golden/layouts.ts';
import { prettyJson } from '../golden/pretty.ts';
import { failureText } from '../golden/reporters/text.ts';
import { fileStem, requestName } from '../golden/requests.ts';
import { checkAll } from '../golden/run.ts';
import { responseText } from '../golden/update.ts';
import type { RpcContext } from '../rpc/context.ts';
import { dispatch } from '../rpc/dispatch.ts';
import { requestBody } from '../rpc/inProcess.ts';
import { currentSettings } from './config.ts';
import { contextOf } from './contexts.ts';
import { writeWhole } from './files.ts';
import { markSeen, type MatcherOutcome, noted, type RunnerState, snapshotName, tracesDir } from './runner.ts';
import { blockTraceRequest, type TraceOptions, txTraceRequest } from './traceRequest.ts';

/** What `expect(…)` is given: a chain from openChain and the transaction or block to trace. */
export type TraceReceived = TraceOptions & { readonly chain: object } & ({ readonly tx: string } | { readonly block: number | bigint | string });

const MATCHER = 'toMatchTraceSnapshot';

/** The context and request body of a received value; a TypeError saying what was expected otherwise. */
export function resolveTarget(matcher: string, received: unknown): { ctx: () => RpcContext; request: string; what: string } {
  const value = (typeof received === 'object' && received !== null ? received : {}) as Partial<Record<'chain' | 'tx' | 'block' | 'tracer' | 'tracerConfig', unknown>>;
  const ctx = contextOf(value.chain);
  const options = { tracer: value.tracer as string | undefined, tracerConfig: value.tracerConfig };
  const asked = typeof value.tx === 'string' ? txTraceRequest(value.tx, options) : ['number', 'bigint', 'string'].includes(typeof value.block) ? blockTraceRequest(value.block as number | bigint | string, options) : undefined;
  if (ctx === undefined || asked === undefined) {
    throw new TypeError(`${matcher}: expect() takes { chain, tx } or { chain, block } (and optionally tracer, tracerConfig), with a chain from openChain`);
  }
  return { ctx, request: requestBody(asked.method, asked.params), what: `${asked.method} ${String(asked.params[0])}` };
}

/** An error answer thrown as one line: nothing is written for a trace that could not be made. */
export function throwIfError(matcher: string, what: string, answer: string | undefined): string {
  const root = answer === undefined ? undefined : parseWhole(answer);
  const error = root === undefined ? undefined : member(root, 'error');
  if (answer === undefined || error !== undefined) {
    const message = error === undefined ? undefined : member(error, 'message');
    throw new Error(`${matcher}: ${what}: ${message?.t === 'string' ? message.value : 'no answer'} (no snapshot written)`);
  }
  return answer;
}

/** A snapshot file's text, which must be one JSON value; an Error naming the file otherwise. */
function readJsonFile(file: string): string {
  const text = readFileSync(file, 'utf8');
  if (parseWhole(text) === undefined) {
    throw new Error(`${MATCHER}: ${file} is not valid JSON (edited by hand?): restore it, or delete it and its pair to have the snapshot written anew`);
  }
  return text;
}

const hint = (state: RunnerState): string => `  (\`${state.updateFlag}\` accepts the new answer as the snapshot)`;

async function judge(state: RunnerState, received: unknown, name?: string): Promise<MatcherOutcome> {
  const { ctx, request, what } = resolveTarget(MATCHER, received);
  const snapshot = snapshotName(state, MATCHER, name, requestName(request));
  const dir = join(tracesDir(state.testPath), basename(state.testPath));
  const stem = join(dir, fileStem(snapshot));
  const requestFile = `${stem}.request.json`;
  const responseFile = `${stem}.response.json`;
  const [hasRequest, hasResponse] = [existsSync(requestFile), existsSync(responseFile)];
  if (hasRequest !== hasResponse) {
    throw new Error(`${MATCHER}: ${hasRequest ? requestFile : responseFile} has no ${basename(hasRequest ? responseFile : requestFile)} beside it: delete it to have the snapshot written anew`);
  }
  markSeen(state.testPath, responseFile);
  const write = async (): Promise<void> => {
    const answer = throwIfError(MATCHER, what, await dispatch(request, ctx()));
    writeWhole(requestFile, request);
    writeWhole(responseFile, prettyJson(answer));
  };
  if (!hasRequest) {
    if (state.update === 'none') {
      return { pass: false, message: () => `trace snapshot ${JSON.stringify(snapshot)} (${responseFile}) is missing, and in CI a missing snapshot is not written: run the tests without CI=true and commit it` };
    }
    await write();
    return { pass: true, message: () => `trace snapshot ${JSON.stringify(snapshot)} written` };
  }
  const recordedRequest = readJsonFile(requestFile);
  const recorded = readJsonFile(responseFile);
  if (compactJson(recordedRequest) !== request) {
    if (state.update === 'all') {
      await write();
      return { pass: true, message: () => `trace snapshot ${JSON.stringify(snapshot)} rewritten` };
    }
    return {
      pass: false,
      message: () => [`FAIL ${snapshot}  (${requestFile})`, '  the snapshot was recorded for another request', `    recorded: ${compactJson(recordedRequest)}`, `    now:      ${request}`, hint(state)].join('\n'),
    };
  }
  const exchange: Exchange = { name: snapshot, file: responseFile, layout: 'pair', golden: dir, request: recordedRequest, response: responseBody(recorded) };
  const { decoder, ignore } = currentSettings();
  let answer: string | undefined;
  const report = await checkAll(ctx(), { exchanges: [exchange], skipped: [] }, {
    mode: 'bytes',
    ignore,
    ...(decoder === undefined ? {} : { decoder }),
    onFail: (_, got) => void (answer = got),
  });
  const result = report.cases[0]!;
  if (result.status !== 'fail') return { pass: true, message: () => `trace snapshot ${JSON.stringify(snapshot)} matches` };
  // a transaction no longer on the chain is the test's error, not a difference to accept
  const got = throwIfError(MATCHER, what, answer);
  if (state.update === 'all') {
    // as `check --update` rewrites it: in the form the file has (pretty, or compact if made so)
    writeWhole(responseFile, responseText(recorded, got));
    return { pass: true, message: () => `trace snapshot ${JSON.stringify(snapshot)} rewritten` };
  }
  return { pass: false, message: () => `${failureText(result)}\n${hint(state)}` };
}

/** The trace of `received` against its snapshot: written when missing, compared by check's engine, rewritten under the update flag. */
export function traceSnapshotMatcher(state: RunnerState, received: unknown, name?: string): Promise<MatcherOutcome> {
  return noted(state.testPath, () => judge(state, received, name));
}
