// The transport-free core: request text in, response text out (undefined when go-ethereum would
// write nothing: an empty body, a notification, a batch of notifications). Mirrors go-ethereum
// rpc/json.go (message decoding, raw id echo) and rpc/handler.go (call, batch and error rules).
import { goJson } from '../encoding/json.ts';
import {
  InvalidParamsError,
  InvalidRequestError,
  MethodNotFoundError,
  ParseError,
  RpcError,
  toWireError,
  type WireError,
} from '../errors/rpcErrors.ts';
import type { RpcContext } from './context.ts';
import { decodeParams, findMethod } from './methods.ts';
import { readFirstValue, type JsonNode } from './rawJson.ts';
import { findGoField, ParamDecodeError } from './schemas.ts';

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

function errorText(id: string, error: WireError): string {
  return `{"jsonrpc":"2.0","id":${id},"error":${goJson({ code: error.code, message: error.message })}}`;
}

function resultText(id: string, result: unknown): string {
  return `{"jsonrpc":"2.0","id":${id},"result":${goJson(result === undefined ? null : result)}}`;
}

async function handleCall(msg: Message, id: string, ctx: RpcContext): Promise<string> {
  try {
    if (new TextEncoder().encode(msg.method).length > MAX_METHOD_NAME_LENGTH) {
      throw new InvalidRequestError(`method name too long: ${new TextEncoder().encode(msg.method).length} > ${MAX_METHOD_NAME_LENGTH}`);
    }
    const spec = findMethod(msg.method);
    if (spec === undefined) throw new MethodNotFoundError(msg.method);
    let args: unknown[];
    try {
      args = decodeParams(spec, msg.params);
    } catch (err) {
      if (err instanceof ParamDecodeError) throw new InvalidParamsError(err.message);
      throw err;
    }
    return resultText(id, await spec.handler(args, ctx));
  } catch (err) {
    return errorText(id, toWireError(err, ctx.log));
  }
}

/** One message of a request (go-ethereum handler.handleCallMsg); undefined = no answer. */
async function handleMessage(node: JsonNode, ctx: RpcContext): Promise<string | undefined> {
  const msg = decodeMessage(node);
  if (isResponse(msg)) return undefined;
  if (isNotification(msg)) {
    if (!msg.method.endsWith('_subscription')) await handleCall(msg, 'null', ctx);
    return undefined;
  }
  if (isCall(msg)) return handleCall(msg, msg.id!, ctx);
  return errorText(hasValidId(msg) ? msg.id! : 'null', toWireError(new InvalidRequestError(), ctx.log));
}

async function handleBatch(items: readonly JsonNode[], ctx: RpcContext): Promise<string | undefined> {
  if (items.length === 0) return errorText('null', toWireError(new InvalidRequestError('empty batch'), ctx.log));
  if (ctx.maxBatch > 0 && items.length > ctx.maxBatch) {
    // go-ethereum respondWithBatchTooLarge: one error, carrying the id of the first call
    const firstCall = items.map(decodeMessage).find(isCall);
    return `[${errorText(firstCall?.id ?? 'null', toWireError(new InvalidRequestError('batch too large'), ctx.log))}]`;
  }
  const answers: string[] = [];
  for (const item of items) {
    const answer = await handleMessage(item, ctx);
    if (answer !== undefined) answers.push(answer);
  }
  return answers.length === 0 ? undefined : `[${answers.join(',')}]`;
}

/**
 * Answers one request body. Never throws: anything unexpected becomes a JSON-RPC error with the
 * detail logged through `ctx.log`.
 */
export async function dispatch(bodyText: string, ctx: RpcContext): Promise<string | undefined> {
  try {
    const read = readFirstValue(bodyText);
    if (read.kind === 'empty') return undefined;
    if (read.kind === 'invalid') return errorText('null', toWireError(new ParseError(), ctx.log));
    if (read.node.t === 'array') return await handleBatch(read.node.items, ctx);
    return await handleMessage(read.node, ctx);
  } catch (err) {
    // only a defect in this file can land here; keep the process and the client safe
    const wire = toWireError(err instanceof RpcError ? err : new Error(String(err instanceof Error ? err.stack : err)), ctx.log);
    return errorText('null', wire);
  }
}
