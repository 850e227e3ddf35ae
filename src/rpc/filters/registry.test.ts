import { expect, test } from 'bun:test';
import { FILTER_DEADLINE_MS, FilterLimitError, FilterRegistry, MAX_FILTERS, newId } from './registry.ts';

test('ids are rpc.NewID\'s: 0x and up to 32 hex digits, no leading zero', () => {
  for (let i = 0; i < 200; i++) expect(newId()).toMatch(/^0x([1-9a-f][0-9a-f]{0,31}|0)$/);
});

test('10,000 filters at most: the next is refused, one uninstalled makes room', () => {
  const registry = new FilterRegistry();
  let last = '';
  for (let i = 0; i < MAX_FILTERS; i++) last = registry.install({ kind: 'blocks' });
  expect(() => registry.install({ kind: 'blocks' })).toThrow(FilterLimitError);
  expect(registry.uninstall(last)).toBe(true);
  expect(registry.install({ kind: 'pending' })).toMatch(/^0x/);
  expect(registry.size).toBe(MAX_FILTERS);
});

test('a filter not polled for five minutes is gone; polling keeps it', () => {
  let now = 0;
  const registry = new FilterRegistry(() => now);
  const polled = registry.install({ kind: 'blocks' });
  const idle = registry.install({ kind: 'blocks' });
  now = FILTER_DEADLINE_MS - 1;
  expect(registry.poll(polled)).toEqual({ kind: 'blocks' });
  now = FILTER_DEADLINE_MS + 1;
  expect(registry.poll(idle)).toBeUndefined();
  expect(registry.poll(polled)).toEqual({ kind: 'blocks' });
});
