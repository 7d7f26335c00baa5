import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ROOT_DIR } from '../src/config/env.js';
import { buildTestApp, engine } from './helper.js';

const REDOCLY = path.join(ROOT_DIR, 'node_modules', '.bin', 'redocly');

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: Array<{ ruleId: string; message: string; location: Array<{ pointer: string }> }>;
}

/** Redocly's recommended rules over `document`, in a folder of its own (no redocly.yaml). */
async function lint(document: string): Promise<LintReport> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-openapi-'));
  try {
    fs.writeFileSync(path.join(dir, 'openapi.json'), document);
    const { stdout } = await promisify(execFile)(
      REDOCLY,
      ['lint', 'openapi.json', '--extends', 'recommended', '--format', 'json'],
      {
        cwd: dir,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    return JSON.parse(stdout) as LintReport;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Each problem on one line: rule, where, what. */
const summary = (report: LintReport) =>
  report.problems.map(
    (problem) => `${problem.ruleId} at ${problem.location[0]?.pointer}: ${problem.message}`,
  );

interface OpenApiDocument {
  tags?: Array<{ name: string; description?: string }>;
  paths: Record<string, Record<string, { tags?: string[] }>>;
}

/** The tags operations use that the document does not declare with a description. */
function undeclaredTags(document: OpenApiDocument): string[] {
  const declared = new Set(
    (document.tags ?? []).filter((tag) => tag.description?.trim()).map((tag) => tag.name),
  );
  const used = Object.values(document.paths).flatMap((operations) =>
    Object.values(operations).flatMap((operation) => operation.tags ?? []),
  );
  return [...new Set(used)].filter((tag) => !declared.has(tag)).sort();
}

/**
 * The OpenAPI document at /api/docs/json passes Redocly's recommended rules with no error and no
 * warning: every operation has an operationId, declares how it is authorised (a bearer token,
 * Stripe's signature, or nothing) and at least one 4xx answer, and the document names a server.
 * Every tag an operation uses is declared, with a description.
 */
describe(`the OpenAPI document (${engine})`, () => {
  it.each([
    ['the demo card gateway', {}],
    [
      'Stripe, with its webhook',
      {
        STRIPE_SECRET_KEY: 'sk_test_portal_openapi',
        STRIPE_PUBLISHABLE_KEY: 'pk_test_portal_openapi',
        STRIPE_WEBHOOK_SECRET: 'whsec_portal_openapi',
      },
    ],
  ])('passes Redocly’s recommended lint with %s', async (_name, env) => {
    const t = await buildTestApp({ env });
    try {
      const response = await t.app.inject('/api/docs/json');
      expect(response.statusCode).toBe(200);
      const report = await lint(response.body);
      expect(summary(report)).toEqual([]);
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
      expect(undeclaredTags(response.json())).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
