// Go's time.ParseDuration, for trace timeouts ("300ms", "5s", "1m30s") and the CLI's durations:
// the same values, limits and error texts as go-ethereum gets from it.

const DURATION_UNITS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  'µs': 1e-3,
  'μs': 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/** time.Duration's largest value, 2^63−1 ns, in milliseconds. */
const MAX_DURATION_MS = 9_223_372_036_854.775;

/** time.ParseDuration, in milliseconds; throws with Go's message. */
export function parseGoDuration(orig: string): number {
  const quote = (s: string): string => JSON.stringify(s);
  const invalid = (): never => {
    throw new Error(`time: invalid duration ${quote(orig)}`);
  };
  let s = orig;
  let neg = false;
  if (s !== '' && (s[0] === '-' || s[0] === '+')) {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0;
  if (s === '') invalid();
  let total = 0;
  while (s !== '') {
    const m = /^(\d*)(?:\.(\d*))?/.exec(s)!;
    const [whole, pre = '', post] = m;
    if (pre === '' && (post === undefined || post === '')) invalid();
    s = s.slice(whole.length);
    const unitMatch = /^[^0-9.]*/.exec(s)![0];
    if (unitMatch === '') throw new Error(`time: missing unit in duration ${quote(orig)}`);
    const unit = DURATION_UNITS[unitMatch];
    if (unit === undefined) throw new Error(`time: unknown unit ${quote(unitMatch)} in duration ${quote(orig)}`);
    s = s.slice(unitMatch.length);
    total += Number(`${pre || '0'}.${post ?? ''}0`) * unit;
    // Go holds the sum in int64 nanoseconds and refuses what does not fit
    if (total > MAX_DURATION_MS) invalid();
  }
  return neg ? -total : total;
}
