// `--reporter github`: GitHub Actions workflow commands, so each failing case becomes an annotation
// on its recording's file in the pull request (on the line of its first difference, in a golden that
// `record` wrote), carrying the grouped differences the text reporter prints. The runner hides
// command lines from the log, so the text report follows them: the log still reads as a story and
// its last line stays the plain `N passed, M failed`.
import { isAbsolute, relative, sep } from 'node:path';
import type { CheckReport } from '../run.ts';
import { failureText, textReport } from './text.ts';

export interface GithubRun {
  readonly fixture: string;
  readonly goldens: readonly string[];
  /** The directory annotation paths are made relative to (the checkout); `process.cwd()` by default. */
  readonly cwd?: string;
}

// The escapes of @actions/core's `command.ts` (escapeData, escapeProperty): the runner splits a
// command on the first `::` and its properties on `,` and the first `=`, and reads one line.
export const escapeData = (s: string): string => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
export const escapeProperty = (s: string): string => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

function command(name: 'error' | 'notice', properties: Record<string, string>, message: string): string {
  const props = Object.entries(properties).map(([k, v]) => `${k}=${escapeProperty(v)}`).join(',');
  return `::${name} ${props}::${escapeData(message)}`;
}

/**
 * GitHub places an annotation only by a path relative to the repository root: an absolute path
 * under `cwd` (the checkout, where CI runs us) is made relative; anything else is left as given.
 */
export function annotationPath(file: string, cwd: string): string {
  if (!isAbsolute(file)) return file;
  const rel = relative(cwd, file);
  if (rel === '' || isAbsolute(rel) || rel === '..' || rel.startsWith(`..${sep}`)) return file;
  return sep === '/' ? rel : rel.split(sep).join('/');
}

/**
 * One `::error` per failing case (title `check: NAME`, message its grouped differences), one
 * `::notice` per skipped recording (why it has no answer), then the text report; ends with a newline.
 */
export function githubReport(report: CheckReport, run: GithubRun): string {
  const cwd = run.cwd ?? process.cwd();
  const lines: string[] = [];
  for (const c of report.cases) {
    const file = annotationPath(c.file, cwd);
    if (c.status === 'fail') {
      // failureText's first line repeats the name and file the annotation already shows.
      const message = failureText(c).split('\n').slice(1).join('\n');
      // the line of the first difference's recorded value, where the golden is one `record` writes
      const line = c.differences[0]?.line;
      lines.push(command('error', { file, ...(line === undefined ? {} : { line: String(line) }), title: `check: ${c.name}` }, message));
    } else if (c.status === 'skip') {
      lines.push(command('notice', { file, title: `check skipped: ${c.name}` }, c.reason));
    }
  }
  return `${lines.map((l) => `${l}\n`).join('')}${textReport(report)}`;
}
