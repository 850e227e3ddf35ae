// src/api/vitest.ts
import { afterAll, expect } from "vitest";
import { expectMatchers, reportObsolete } from "./index.mjs";
expect.extend(expectMatchers("vitest", "vitest -u"));
afterAll(() => void reportObsolete());
