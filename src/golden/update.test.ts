import { afterAll, describe, expect, test } from 'bun:test';
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GoldenError } from '../errors/goldenError.ts';
import { prettyJson } from './pretty.ts';
import { checkWritable, responseText, rewriteResponses, updatable } from './update.ts';

const rewriteResponse = (file: string, answer: string | undefined): void => rewriteResponses([{ file, answer }]);

const work = mkdtempSync(join(tmpdir(), 'blocktrace-update-'));
/** Paths made immutable, made mutable again before the directory is removed. */
const immutable: string[] = [];
afterAll(() => {
  for (const path of immutable) spawnSync('chattr', ['-i', path]);
  rmSync(work, { recursive: true, force: true });
});

const ANSWER = '{"jsonrpc":"2.0","id":1,"result":{"a":[1,"\\u003c"],"b":{}}}';
const OLD = '{"jsonrpc":"2.0","id":1,"result":{"a":[0]}}';
let dirs = 0;
/** A fresh directory holding `files`. */
function dir(files: Record<string, string>): string {
  const path = join(work, `d${++dirs}`);
  mkdirSync(path);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(path, name), text);
  return path;
}
const isRoot = process.getuid?.() === 0;

/** `chattr +i`: a read-only-ness root cannot write through. */
function makeImmutable(path: string): void {
  if (spawnSync('chattr', ['+i', path]).status !== 0) throw new Error(`chattr +i ${path} failed`);
  immutable.push(path);
}
/** Whether chattr can make a file immutable here: not on tmpfs, nor without CAP_LINUX_IMMUTABLE, nor without chattr. */
const canMakeImmutable = ((): boolean => {
  const probe = join(work, 'probe');
  writeFileSync(probe, '');
  const ok = spawnSync('chattr', ['+i', probe]).status === 0;
  if (ok) spawnSync('chattr', ['-i', probe]);
  rmSync(probe);
  return ok;
})();

test('only the pairs record writes are updatable', () => {
  expect(updatable({ layout: 'pair' })).toBe(true);
  expect(updatable({ layout: 'io' })).toBe(false);
  expect(updatable({ layout: 'array' })).toBe(false);
});

describe('rewriteResponses', () => {
  test('a pretty file stays pretty, a compact one compact (a final newline is not form), no answer empties it', () => {
    const d = dir({ 'p.response.json': prettyJson(OLD), 'c.response.json': `${OLD}\n`, 'n.response.json': OLD, 'e.response.json': '' });
    rewriteResponse(join(d, 'p.response.json'), ANSWER);
    rewriteResponse(join(d, 'c.response.json'), ANSWER);
    rewriteResponse(join(d, 'n.response.json'), undefined);
    rewriteResponse(join(d, 'e.response.json'), ANSWER);
    expect(readFileSync(join(d, 'p.response.json'), 'utf8')).toBe(prettyJson(ANSWER));
    expect(readFileSync(join(d, 'p.response.json'), 'utf8')).toContain('"\\u003c"');
    expect(readFileSync(join(d, 'c.response.json'), 'utf8')).toBe(ANSWER);
    expect(readFileSync(join(d, 'n.response.json'), 'utf8')).toBe('');
    // a notification's empty file has no form of its own: record's default
    expect(readFileSync(join(d, 'e.response.json'), 'utf8')).toBe(prettyJson(ANSWER));
    expect(readdirSync(d).sort()).toEqual(['c.response.json', 'e.response.json', 'n.response.json', 'p.response.json']);
  });

  test('an answer that is not JSON is written as is', () => {
    expect(responseText(prettyJson(OLD), 'not json')).toBe('not json');
  });

  test("the file's mode is kept, and its owner when run as root", () => {
    const d = dir({ 'x.response.json': OLD });
    const file = join(d, 'x.response.json');
    chmodSync(file, 0o640);
    if (isRoot) chownSync(file, 1234, 2345);
    rewriteResponse(file, ANSWER);
    expect(statSync(file).mode & 0o7777).toBe(0o640);
    if (isRoot) expect([statSync(file).uid, statSync(file).gid]).toEqual([1234, 2345]);
    expect(readFileSync(file, 'utf8')).toBe(ANSWER);
  });

  test('a symbolic link is followed, not replaced', () => {
    const d = dir({ 'real.response.json': OLD });
    symlinkSync(join(d, 'real.response.json'), join(d, 'link.response.json'));
    rewriteResponse(join(d, 'link.response.json'), ANSWER);
    expect(lstatSync(join(d, 'link.response.json')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(d, 'real.response.json'), 'utf8')).toBe(ANSWER);
  });

  test('a file that cannot be read or replaced: a GoldenError naming it, nothing left behind', () => {
    const d = dir({ 'plain.response.json': OLD });
    // a path under a file: fails for root too (ENOTDIR)
    const under = join(d, 'plain.response.json', 'x.response.json');
    expect(() => rewriteResponse(under, ANSWER)).toThrow(new GoldenError(`cannot update ${under}: ENOTDIR`));
    expect(() => rewriteResponse(join(d, 'gone.response.json'), ANSWER)).toThrow(new GoldenError(`cannot update ${join(d, 'gone.response.json')}: ENOENT`));
    expect(readdirSync(d)).toEqual(['plain.response.json']);
    expect(readFileSync(join(d, 'plain.response.json'), 'utf8')).toBe(OLD);
  });

  // Root writes through every mode bit; only an immutable file (ext4, xfs, btrfs) stops it. Where
  // chattr cannot set one (tmpfs, an unprivileged container), a failing rename is not reachable.
  test.skipIf(!canMakeImmutable)('an immutable file: the temporary file written beside it is removed when the rename fails', () => {
    const d = dir({ 'x.response.json': OLD });
    const file = join(d, 'x.response.json');
    makeImmutable(file);
    expect(() => rewriteResponse(file, ANSWER)).toThrow(new GoldenError(`cannot update ${file}: EPERM`));
    expect(readdirSync(d)).toEqual(['x.response.json']);
    expect(readFileSync(file, 'utf8')).toBe(OLD);
  });
});

describe('checkWritable', () => {
  test('writable files and directories pass', () => {
    const d = dir({ 'a.response.json': OLD, 'b.response.json': OLD });
    expect(() => checkWritable([join(d, 'a.response.json'), join(d, 'b.response.json')])).not.toThrow();
  });

  test('the first file that cannot be rewritten is named, before any file is touched', () => {
    const d = dir({ 'a.response.json': OLD });
    const under = join(d, 'a.response.json', 'b.response.json');
    const files = [join(d, 'a.response.json'), under, join(d, 'missing.response.json')];
    expect(() => checkWritable(files)).toThrow(new GoldenError(`cannot update ${under}: ENOTDIR`));
    expect(readFileSync(join(d, 'a.response.json'), 'utf8')).toBe(OLD);
  });

  test.skipIf(!canMakeImmutable)('an immutable directory or file (what stops root too)', () => {
    const d = dir({ 'a.response.json': OLD, 'b.response.json': OLD });
    const frozen = dir({ 'c.response.json': OLD });
    makeImmutable(join(d, 'b.response.json'));
    makeImmutable(frozen);
    const [a, b, c] = [join(d, 'a.response.json'), join(d, 'b.response.json'), join(frozen, 'c.response.json')];
    expect(() => checkWritable([a, b, c])).toThrow(new GoldenError(`cannot update ${b}: EPERM`));
    expect(() => checkWritable([a, c])).toThrow(new GoldenError(`cannot update ${c}: its directory ${frozen} is not writable (EPERM)`));
    expect(() => rewriteResponse(c, ANSWER)).toThrow(new GoldenError(`cannot update ${c}: EPERM`));
    expect(readdirSync(frozen)).toEqual(['c.response.json']);
    expect([a, b, c].map((f) => readFileSync(f, 'utf8'))).toEqual([OLD, OLD, OLD]);
  });
});
