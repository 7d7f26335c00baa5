import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { orderedId } from './ordered-id.js';

describe('orderedId', () => {
  it('is a UUID of version 7 and the RFC variant, that any UUID check accepts', () => {
    const id = orderedId();
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(z.uuid().safeParse(id).success).toBe(true);
  });

  it('starts with the time in milliseconds, so that later ids sort later', () => {
    const at = Date.UTC(2026, 10, 27, 22, 30);
    expect(orderedId(at).replace('-', '').slice(0, 12)).toBe(at.toString(16).padStart(12, '0'));
    const ids = [at, at + 1, at + 1000, at + 86_400_000].map((ms) => orderedId(ms));
    expect([...ids].sort()).toEqual(ids);
  });

  it('differs in its random part between ids of the same millisecond', () => {
    const at = Date.now();
    const ids = new Set(Array.from({ length: 5000 }, () => orderedId(at)));
    expect(ids.size).toBe(5000);
  });
});
