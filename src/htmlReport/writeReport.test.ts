import { afterAll, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeReport } from './writeReport.ts';

const work = mkdtempSync(join(tmpdir(), 'blocktrace-write-report-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

test('the report is written whole under its name, through a hidden temporary file that is gone after', () => {
  const path = join(work, 'report.html');
  expect(writeReport(path, '<p>one</p>')).toBe(path);
  expect(writeReport(path, '<p>two</p>')).toBe(path);
  expect(readFileSync(path, 'utf8')).toBe('<p>two</p>');
  expect(readdirSync(work)).toEqual(['report.html']);
});

test('a rename that fails leaves neither the report nor the temporary file', () => {
  const path = join(work, 'taken');
  mkdirSync(join(path, 'inside'), { recursive: true });
  expect(() => writeReport(path, '<p>x</p>')).toThrow();
  expect(readdirSync(work).filter((name) => name.startsWith('.'))).toEqual([]);
});
