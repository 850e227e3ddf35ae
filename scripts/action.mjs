// The GitHub Action (action.yml, `runs: using: node24`): the runner's Node runs this file from the
// action's checkout, which carries the bundle it runs (dist/blocktrace.mjs, committed): no install,
// no download. It runs `blocktrace check` in the workspace with the inputs, the report on the log
// (with the github reporter its ::error lines are the annotations), and from the run's JSON report
// sets the `summary` output ("N passed, M failed") and appends the Markdown summary to the job's.
// A check that cannot run (exit 2: a fixture, golden or argument problem) becomes an ::error with
// its one line, and the output and job summary say it. Plain JavaScript: the runner runs it as is.
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const bundle = join(dirname(fileURLToPath(import.meta.url)), '../dist/blocktrace.mjs');

/**
 * `text` split into words as a POSIX shell splits them: blanks and newlines separate words, '…'
 * keeps everything literally, "…" keeps everything but \ before " \ $ ` and newline, and \ outside
 * quotes keeps the next character. Nothing is expanded ($VAR, *, ~ stay as written). Throws on an
 * unterminated quote.
 */
export function shellWords(text) {
  const words = [];
  let word;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end === -1) throw new Error(`unterminated ' in: ${text}`);
      word = (word ?? '') + text.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      word ??= '';
      for (i++; text[i] !== '"'; i++) {
        if (i >= text.length) throw new Error(`unterminated " in: ${text}`);
        if (text[i] === '\\' && '"\\$`\n'.includes(text[i + 1] ?? '')) i++;
        if (text[i] !== '\n' || text[i - 1] !== '\\') word += text[i];
      }
    } else if (c === '\\') {
      // a backslash-newline joins the lines; any other character is taken as itself
      if (text[i + 1] !== '\n') word = (word ?? '') + (text[i + 1] ?? '');
      i++;
    } else word = (word ?? '') + c;
  }
  if (word !== undefined) words.push(word);
  return words;
}

// The escapes of @actions/core's command.ts, as src/golden/reporters/github.ts has them
const escapeData = (s) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');

const input = (name) => process.env[`INPUT_${name.toUpperCase()}`] ?? '';

/** `summary=…` for the step's outputs and a Markdown block for the job summary, where the runner gave the files. */
function publish(summary, markdown) {
  if (process.env.GITHUB_OUTPUT) appendFileSync(process.env.GITHUB_OUTPUT, `summary=${summary.replace(/\n/g, ' ')}\n`);
  if (process.env.GITHUB_STEP_SUMMARY) appendFileSync(process.env.GITHUB_STEP_SUMMARY, `${markdown}\n`);
}

/** A check that could not run: an annotation on the run, the output and the job summary say why; exit 2. */
function cannotRun(message) {
  process.stdout.write(`::error title=blocktrace check::${escapeData(message)}\n`);
  publish(`error: ${message}`, `### blocktrace check could not run\n\n${message}\n`);
  return 2;
}

async function main() {
  let goldens;
  let args;
  try {
    goldens = shellWords(input('goldens'));
    args = shellWords(input('args'));
  } catch (err) {
    return cannotRun(`the goldens or args input: ${err.message}`);
  }
  const fixture = input('fixture').trim();
  if (fixture === '' || goldens.length === 0) return cannotRun('the fixture and goldens inputs are required');
  if (!existsSync(bundle)) return cannotRun(`${bundle} is missing from the action's checkout`);
  const temp = mkdtempSync(join(process.env.RUNNER_TEMP || tmpdir(), 'blocktrace-'));
  try {
    const json = join(temp, 'report.json');
    const markdown = join(temp, 'summary.md');
    const reporter = input('reporter').trim() || 'github';
    const command = ['check', fixture, ...goldens, '--reporter', reporter, ...args, '--report', json, '--report', markdown];
    const child = spawn(process.execPath, [bundle, ...command], { cwd: process.env.GITHUB_WORKSPACE || process.cwd(), stdio: ['ignore', 'inherit', 'pipe'] });
    // its lines go to the log as they come, but for the ones saying where this file's own reports went
    let stderr = '';
    let shown = 0;
    const show = (upTo) => {
      for (const line of stderr.slice(shown, upTo).split('\n').slice(0, -1)) if (!line.includes(temp)) process.stderr.write(`${line}\n`);
      shown = upTo;
    };
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      show(stderr.lastIndexOf('\n') + 1);
    });
    const code = await new Promise((resolve) => child.on('close', (status, signal) => resolve(signal === null ? status : 128)));
    if (stderr !== '' && !stderr.endsWith('\n')) stderr += '\n';
    show(stderr.length);
    if ((code === 0 || code === 1) && existsSync(json)) {
      const { passed, failed, skipped } = JSON.parse(readFileSync(json, 'utf8'));
      publish(`${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`, readFileSync(markdown, 'utf8'));
      return code;
    }
    // the command's own one line (it says what is wrong), without the "blocktrace: " every line has
    const said = stderr.split('\n').filter((l) => l.startsWith('blocktrace: ') && !l.startsWith('blocktrace: wrote ')).at(-1)?.slice('blocktrace: '.length);
    return cannotRun(said ?? `blocktrace check ended with status ${code}`);
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = await main();
