/**
 * The environment a test gives the processes it starts (the portal, its CLIs, npm): a clean one,
 * with only PATH from its own and whatever `extra` names. When `npm test` runs the suites under
 * another Node line, it also passes on what makes every process of that run load the
 * better-sqlite3 compiled for that Node (scripts/lib/better-sqlite3-binary.cjs).
 */
export function childEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '' };
  for (const name of ['NODE_OPTIONS', 'TEST_BETTER_SQLITE3_BINARY']) {
    const value = process.env[name];
    if (value) env[name] = value;
  }
  return { ...env, ...extra };
}
