// The values options take: sizes, counts, durations, URLs, hosts. Each parser turns the text into its
// value or throws Usage with the line that says what is wrong; options.ts names one per option.
import { parseGoDuration } from '../rpc/goDuration.ts';

/** A command line that cannot be read; cli.ts prints its message as one line and exits 2. */
export class Usage extends Error {}

export function usage(message: string): never {
  throw new Usage(message);
}

const SIZE_UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  k: 1000,
  kb: 1000,
  kib: 1024,
  m: 1000 ** 2,
  mb: 1000 ** 2,
  mib: 1024 ** 2,
  g: 1000 ** 3,
  gb: 1000 ** 3,
  gib: 1024 ** 3,
};

/** "5MiB" → 5242880; undefined when not a size. */
export function parseSize(text: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)\s*([a-zA-Z]*)$/.exec(text.trim());
  if (!m) return undefined;
  const unit = SIZE_UNITS[m[2]!.toLowerCase()];
  if (unit === undefined) return undefined;
  const bytes = Math.floor(Number(m[1]) * unit);
  return bytes > 0 && Number.isSafeInteger(bytes) ? bytes : undefined;
}

/** A size in bytes (`0` too where `zero` says it means no limit). */
export const size =
  (name: string, examples: string, zero = false) =>
  (value: string): number =>
    (zero && value.trim() === '0' ? 0 : parseSize(value)) ?? usage(`${name}: not a size: ${value} (e.g. ${examples})`);

/** A whole number from 0 to `max`; `what` names it in the message (a port number, a count). */
export const count =
  (name: string, max: number, what: string) =>
  (value: string): number =>
    /^\d+$/.test(value) && Number(value) <= max ? Number(value) : usage(`${name}: not ${what}: ${value}`);

/**
 * A Go duration (time.ParseDuration: 300ms, 5s, 1m30s) in milliseconds, the one reading of every
 * duration option: at least 0, or above 0 where `positive` says so.
 */
export const duration =
  (name: string, positive = false) =>
  (value: string): number => {
    let ms: number;
    try {
      ms = parseGoDuration(value);
    } catch (err) {
      return usage(`${name}: ${(err as Error).message} (e.g. ${positive ? '500ms, 10s, 1m' : '0, 300ms, 5s, 1m30s'})`);
    }
    if (positive ? ms > 0 : ms >= 0) return ms;
    return usage(positive ? `${name}: must be positive: ${value}` : `${name}: a duration cannot be negative: ${value}`);
  };

/** An http(s) URL: a node's. */
export const httpUrl =
  (name: string) =>
  (value: string): string =>
    /^https?:\/\/[^\s/]+/.test(value) ? value : usage(`${name}: not an http(s) URL: ${value}`);

/** A block number, decimal or 0x. */
export const blockNumber =
  (name: string) =>
  (value: string): bigint =>
    /^(0x[0-9a-fA-F]+|[0-9]+)$/.test(value) ? BigInt(value) : usage(`${name}: not a block number: ${value}`);

/** `--host`: an IP address or a host name; a dotted quad that is no IPv4 address is refused here. */
export function host(value: string): string {
  if (/^[0-9.]+$/.test(value) && !/^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/.test(value)) {
    return usage(`--host: ${value} is not an IP address (e.g. 127.0.0.1, 0.0.0.0, ::1, localhost)`);
  }
  if (/\s|\/|^\[|\]$/.test(value)) return usage(`--host: ${value} is not a host (an IP address or a name, e.g. 127.0.0.1, ::1, localhost)`);
  return value;
}

/** `--cors`: origins separated by commas. */
export function origins(value: string): string[] {
  const list = value.split(',').map((o) => o.trim());
  if (list.some((o) => o === '' || /\s/.test(o))) usage(`--cors: not a list of origins: ${value} (e.g. http://localhost:3000,https://app.example)`);
  return list;
}

/** `--shard I/N`: the Ith of N (1-based). */
export interface Shard {
  readonly index: number;
  readonly count: number;
}

/** `I/N` with 1 <= I <= N; undefined when it is not. */
export function parseShard(text: string): Shard | undefined {
  const m = /^([1-9]\d{0,5})\/([1-9]\d{0,5})$/.exec(text);
  if (m === null) return undefined;
  const [index, count] = [Number(m[1]), Number(m[2])];
  return index <= count ? { index, count } : undefined;
}

/** One of a fixed list of words. */
export const oneOf =
  <const W extends string>(words: readonly W[], refusal: (value: string) => string) =>
  (value: string): W =>
    words.find((w) => w === value) ?? usage(refusal(value));
