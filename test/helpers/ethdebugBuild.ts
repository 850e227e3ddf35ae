// Writes golden/debugger/ethdebug/{input,output}.json: golden/debugger/ethdebug/src/Locals.sol built
// by solc-js with via-IR and its experimental ethdebug output (settings.experimental,
// debug.debugInfo ["ethdebug"]), every output a debugger reads. The compiler is not a dependency of
// the project: install it once beside, then run this.
//
//   npm install --no-save --prefix /tmp/solc-ethdebug solc@0.8.37
//   node_modules/.bin/bun test/helpers/ethdebugBuild.ts [/tmp/solc-ethdebug/node_modules/solc]
import { createRequire } from 'node:module';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dir, '../..');
const DIR = join(ROOT, 'golden/debugger/ethdebug');
const solcPath = resolve(process.argv[2] ?? '/tmp/solc-ethdebug/node_modules/solc');
const solc = createRequire(join(solcPath, 'package.json'))(solcPath) as { compile(input: string): string; version(): string };

const input = {
  language: 'Solidity',
  sources: { 'src/Locals.sol': { content: readFileSync(join(DIR, 'src/Locals.sol'), 'utf8') } },
  settings: {
    viaIR: true,
    experimental: true,
    optimizer: { enabled: false },
    debug: { debugInfo: ['ethdebug'] },
    outputSelection: {
      '*': {
        // each field by name: solc 0.8.37 leaves ethdebug out of a whole `evm.bytecode`, named or not
        '*': [
          'abi', 'evm.methodIdentifiers', 'storageLayout',
          ...['bytecode', 'deployedBytecode'].flatMap((code) => ['object', 'sourceMap', 'linkReferences', 'generatedSources', 'ethdebug'].map((field) => `evm.${code}.${field}`)),
          'evm.deployedBytecode.immutableReferences',
        ],
        '': ['ast'],
      },
    },
  },
};
const output = JSON.parse(solc.compile(JSON.stringify(input))) as { errors?: { severity: string; formattedMessage: string }[] };
const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
writeFileSync(join(DIR, 'input.json'), `${JSON.stringify(input, null, 2)}\n`);
writeFileSync(join(DIR, 'output.json'), `${JSON.stringify(output)}\n`);
console.log(`solc ${solc.version()}: ${join(DIR, 'output.json')}`);
