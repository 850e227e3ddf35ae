// The transport-free core: request text in, response text out (undefined when go-ethereum would
// write nothing: an empty body, a notification, a batch of notifications). Mirrors go-ethereum
// rpc/json.go (message decoding, raw id echo) and rpc/handler.go (call, batch and error rules).
import { boundedGoJson, OverBudget } from '../encoding/boundedJson.ts';
import { goJson } from '../encoding/json.ts';
import {
  InvalidParamsError,
  InvalidRequestError,
  MethodNotFoundError,
  ParseError,
  ResponseTooLargeError,
  RpcError,
  toWireError,
  type WireError,
} from '../errors/rpcErrors.ts';
import type { Forwarder, RpcContext } from './context.ts';
import { decodeParams, findMethod } from './methods.ts';
import { readFirstValue, type JsonNode } from '../encoding/rawJson.ts';
import { type CachedResult, ResultCache } from './resultCache.ts';
import { findGoField, ParamDecodeError } from './schemas.ts';
import type { RpcSession } from './subscriptions.ts';

/**
 * Largest result written ahead (a struct log, rendered as its opcodes ran) that the result cache keeps:
 * a larger one is cheaper to run again than to hold, and would push the other answers out.
 */
const KEEP_RENDERED_BYTES = 1024 * 1024;

/** go-ethereum rpc/json.go maxMethodNameLength. */
const MAX_METHOD_NAME_LENGTH = 2048;

/** A request as go-ethereum's jsonrpcMessage holds it: raw id and params, typed version/method. */
interface Message {
  version: string;
  /** Raw JSON text of `id`, undefined when absent. */
  id: string | undefined;
  method: string;
  params: JsonNode | undefined;
  hasResult: boolean;
  hasError: boolean;
}

const MESSAGE_FIELDS = [['jsonrpc'], ['id'], ['method'], ['params'], ['error'], ['result']] as const;

/** json.Unmarshal into jsonrpcMessage: wrong kinds leave a field unset, nothing fails. */
function decodeMessage(node: JsonNode): Message {
  const msg: Message = { version: '', id: undefined, method: '', params: undefined, hasResult: false, hasError: false };
  if (node.t !== 'object') return msg;
  for (const [key, value] of node.entries) {
    const field = findGoField(MESSAGE_FIELDS, key)?.[0];
    switch (field) {
      case 'jsonrpc':
        if (value.t === 'string') msg.version = value.value;
        break;
      case 'method':
        if (value.t === 'string') msg.method = value.value;
        break;
      case 'id':
        msg.id = value.raw;
        break;
      case 'params':
        msg.params = value;
        break;
      case 'error':
        msg.hasError = true;
        break;
      case 'result':
        msg.hasResult = true;
        break;
      case undefined:
        break;
    }
  }
  return msg;
}

const hasValidVersion = (m: Message): boolean => m.version === '2.0';
const hasValidId = (m: Message): boolean => m.id !== undefined && m.id[0] !== '{' && m.id[0] !== '[';
const isNotification = (m: Message): boolean => hasValidVersion(m) && m.id === undefined && m.method !== '';
const isCall = (m: Message): boolean => hasValidVersion(m) && hasValidId(m) && m.method !== '';
/** A response to a request of ours: go-ethereum drops it ("unsolicited RPC response"). */
const isResponse = (m: Message): boolean =>
  hasValidVersion(m) && hasValidId(m) && m.method === '' && m.params === undefined && (m.hasResult || m.hasError);

/** Why one message is neither a call nor a notification (handleMessage answers it -32600 or drops it). */
function messageProblem(node: JsonNode): string | undefined {
  if (node.t !== 'object') return `a JSON ${node.t}, not an object`;
  const msg = decodeMessage(node);
  if (isCall(msg) || isNotification(msg)) return undefined;
  if (!hasValidVersion(msg)) return 'no "jsonrpc": "2.0"';
  if (msg.method === '') return 'no "method"';
  return `an "id" that is an ${msg.id![0] === '{' ? 'object' : 'array'}`;
}

/**
 * Why a parsed request body is not a JSON-RPC request (a call, a notification, or a non-empty batch
 * of them) by the rules the dispatcher answers with; undefined when it is one. `record` refuses what
 * would only be pinned as an error of the envelope.
 */
export function requestProblem(node: JsonNode): string | undefined {
  if (node.t !== 'array') return messageProblem(node);
  if (node.items.length === 0) return 'an empty batch';
  for (const [i, item] of node.items.entries()) {
    const problem = messageProblem(item);
    if (problem !== undefined) return `item ${i + 1} of the batch: ${problem}`;
  }
  return undefined;
}

function errorText(id: string, error: WireError): string {
  return `{"jsonrpc":"2.0","id":${id},"error":${goJson(error.data === undefined ? { code: error.code, message: error.message } : { code: error.code, message: error.message, data: error.data })}}`;
}

/**
 * An answer's text as pieces written one after the other: the whole text, or for a result the text
 * before it, the result, and the text after it. Joined, a megabyte result is copied into a new
 * string for every answer (some milliseconds of copying and collecting); a transport that writes
 * the pieces as they are does not copy it (server/answerBody.ts).
 */
export type AnswerPieces = readonly string[];

/** One answer, with the size of its `result` (go-ethereum counts only results against the batch limit). */
interface Answer {
  readonly pieces: AnswerPieces;
  readonly resultBytes: number;
}

const errorAnswer = (id: string, error: WireError): Answer => ({ pieces: [errorText(id, error)], resultBytes: 0 });

async function handleCall(msg: Message, id: string, ctx: RpcContext): Promise<Answer> {
  try {
    if (new TextEncoder().encode(msg.method).length > MAX_METHOD_NAME_LENGTH) {
      throw new InvalidRequestError(`method name too long: ${new TextEncoder().encode(msg.method).length} > ${MAX_METHOD_NAME_LENGTH}`);
    }
    const spec = findMethod(msg.method, ctx.allTracers);
    if (spec === undefined) {
      if (!ctx.allTracers && findMethod(msg.method, true) !== undefined) ctx.optInRefused(`method ${msg.method}`);
      throw new MethodNotFoundError(msg.method);
    }
    const cacheKey = ctx.results === undefined ? undefined : ResultCache.key(msg.method, msg.params?.raw);
    const cached = cacheKey === undefined ? undefined : ctx.results!.get(cacheKey);
    if (cached !== undefined) return resultAnswer(id, cached, ctx);
    let args: unknown[];
    try {
      args = decodeParams(spec, msg.params);
    } catch (err) {
      if (err instanceof ParamDecodeError) throw new InvalidParamsError(err.message);
      throw err;
    }
    let result: CachedResult & { rendered: boolean };
    try {
      // a tracer that writes ahead (the struct logger) stops at the limit as it runs
      const value = await spec.handler(args, ctx);
      // the size limit is kept while writing: a huge result stops at the limit, not after it is built
      result = boundedGoJson(value === undefined ? null : value, ctx.maxResponse);
    } catch (err) {
      if (err instanceof OverBudget) throw new ResponseTooLargeError();
      throw err;
    }
    if (cacheKey !== undefined && !(result.rendered && result.bytes > KEEP_RENDERED_BYTES)) ctx.results!.set(cacheKey, result);
    return resultAnswer(id, result, ctx);
  } catch (err) {
    return errorAnswer(id, toWireError(err, ctx.log));
  }
}

function resultAnswer(id: string, result: CachedResult, ctx: RpcContext): Answer {
  if (ctx.maxResponse > 0 && result.bytes > ctx.maxResponse) throw new ResponseTooLargeError();
  return { pieces: [`{"jsonrpc":"2.0","id":${id},"result":`, result.text, '}'], resultBytes: result.bytes };
}

/** Upstream mode: the message goes to the upstream as it came, and its answer comes back as it is. */
async function forwardMessage(raw: string, msg: Message, forward: Forwarder, ctx: RpcContext): Promise<Answer | undefined> {
  const id = isCall(msg) ? msg.id! : undefined;
  try {
    const text = await forward.send(raw, msg.method);
    return id === undefined ? undefined : { pieces: [text], resultBytes: Buffer.byteLength(text) };
  } catch (err) {
    return id === undefined ? undefined : errorAnswer(id, toWireError(err, ctx.log));
  }
}

/** One message of a request (go-ethereum handler.handleCallMsg); undefined = no answer. */
async function handleMessage(node: JsonNode, ctx: RpcContext): Promise<Answer | undefined> {
  const msg = decodeMessage(node);
  if (isResponse(msg)) return undefined;
  if (ctx.forward?.takes(msg.method) && (isCall(msg) || isNotification(msg))) return forwardMessage(node.raw, msg, ctx.forward, ctx);
  if (isNotification(msg)) {
    if (!msg.method.endsWith('_subscription')) await handleCall(msg, 'null', ctx);
    return undefined;
  }
  if (isCall(msg)) return handleCall(msg, msg.id!, ctx);
  return errorAnswer(hasValidId(msg) ? msg.id! : 'null', toWireError(new InvalidRequestError(), ctx.log));
}

async function handleBatch(items: readonly JsonNode[], ctx: RpcContext): Promise<string | undefined> {
  if (items.length === 0) return errorText('null', toWireError(new InvalidRequestError('empty batch'), ctx.log));
  if (ctx.maxBatch > 0 && items.length > ctx.maxBatch) {
    // go-ethereum respondWithBatchTooLarge: one error, carrying the id of the first call
    const firstCall = items.map(decodeMessage).find(isCall);
    return `[${errorText(firstCall?.id ?? 'null', toWireError(new InvalidRequestError('batch too large'), ctx.log))}]`;
  }
  const answers: string[] = [];
  let resultBytes = 0;
  for (const [i, item] of items.entries()) {
    if (ctx.maxResponse > 0 && resultBytes > ctx.maxResponse) {
      // go-ethereum handleBatch / batchCallBuffer.respondWithError: once the results exceed the
      // limit, every message not yet handled (notifications aside) gets "response too large"
      const tooLarge = toWireError(new ResponseTooLargeError(), ctx.log);
      for (const rest of items.slice(i).map(decodeMessage)) {
        if (!isResponse(rest) && !isNotification(rest)) answers.push(errorText(hasValidId(rest) ? rest.id! : 'null', tooLarge));
      }
      break;
    }
    const answer = await handleMessage(item, ctx);
    if (answer === undefined) continue;
    answers.push(answer.pieces.join(''));
    resultBytes += answer.resultBytes;
  }
  return answers.length === 0 ? undefined : `[${answers.join(',')}]`;
}

/**
 * Answers one request body. Never throws: anything unexpected becomes a JSON-RPC error with the
 * detail logged through `ctx.log`.
 */
export async function dispatch(bodyText: string, base: RpcContext, session?: RpcSession): Promise<string | undefined> {
  const pieces = await dispatchPieces(bodyText, base, session);
  return pieces === undefined ? undefined : pieces.join('');
}

/** dispatch(), as the pieces of the answer's text (AnswerPieces) for a transport that can write them. */
export async function dispatchPieces(bodyText: string, base: RpcContext, session?: RpcSession): Promise<AnswerPieces | undefined> {
  // a connection that carries notifications (WebSocket) is the handlers' to subscribe on
  const ctx = session === undefined ? base : { ...base, session };
  try {
    const read = readFirstValue(bodyText);
    if (read.kind === 'empty') return undefined;
    if (read.kind === 'invalid') return [errorText('null', toWireError(new ParseError(), ctx.log))];
    if (read.node.t === 'array') {
      const text = await handleBatch(read.node.items, ctx);
      return text === undefined ? undefined : [text];
    }
    return (await handleMessage(read.node, ctx))?.pieces;
  } catch (err) {
    // only a defect in this file can land here; keep the process and the client safe
    const wire = toWireError(err instanceof RpcError ? err : new Error(String(err instanceof Error ? err.stack : err)), ctx.log);
    return [errorText('null', wire)];
  }
}
