// A solc command line over solc-js, for tools that run a native solc (forge `--use PATH`, or a
// version in forge's svm directory): `bun solcjsWrapper.ts VERSION --version` prints the version
// as solc does; `bun solcjsWrapper.ts VERSION --standard-json` compiles the standard JSON on stdin
// and prints the output. VERSION picks the npm package: solc (0.8.30) or its alias solc-0.8.24.
// Other arguments (forge adds --allow-paths, --base-path, --include-path) are ignored: the standard
// JSON forge sends holds every source's content, so nothing is read from disk.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export const SOLCJS_PACKAGES: Readonly<Record<string, string>> = { '0.8.30': 'solc', '0.8.24': 'solc-0.8.24' };

interface Solc {
  version(): string;
  compile(input: string): string;
}

function main(argv: readonly string[]): number {
  const [version, ...args] = argv;
  const pkg = version === undefined ? undefined : SOLCJS_PACKAGES[version];
  if (pkg === undefined) {
    process.stderr.write(`solcjsWrapper: the first argument is one of ${Object.keys(SOLCJS_PACKAGES).join(', ')}\n`);
    return 2;
  }
  const solc = createRequire(import.meta.url)(pkg) as Solc;
  if (args.includes('--version')) {
    process.stdout.write(`solc, the solidity compiler commandline interface\nVersion: ${solc.version()}\n`);
    return 0;
  }
  if (args.includes('--standard-json')) {
    const input = readFileSync(0, 'utf8');
    process.stdout.write(solc.compile(input));
    return 0;
  }
  process.stderr.write(`solcjsWrapper: only --version and --standard-json (got ${args.join(' ')})\n`);
  return 2;
}

if (import.meta.main) process.exitCode = main(process.argv.slice(2));
