// The version, from package.json alone (bundled into dist/ with it).
import packageJson from '../package.json' with { type: 'json' };

export const VERSION: string = packageJson.version;
