// go-ethereum's prestate_test.go form of a recorded result: Go's json.Marshal of a generic value,
// object keys sorted, compact.
import { goJson } from '../../src/encoding/json.ts';

export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) out[key] = sortKeys((value as Record<string, unknown>)[key]);
  return out;
}

export function sortedGoJson(value: unknown): string {
  return goJson(sortKeys(value));
}
