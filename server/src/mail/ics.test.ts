import { describe, expect, it } from 'vitest';
import { buildCalendar, type CalendarEvent, escapeText, foldLine } from './ics.js';

const event: CalendarEvent = {
  uid: 'booking-42@doctors-portal.test',
  date: '2026-01-05',
  startMinutes: 10 * 60,
  endMinutes: 10 * 60 + 30,
  timeZone: 'America/New_York',
  summary: 'Teeth Cleaning at Doctors Portal',
  location: 'Doctors Portal, 120 Harbor Street, Springfield',
  description: 'Teeth Cleaning for Jane Doe\nJan 5, 2026, 10:00 AM - 10:30 AM',
  organizer: { name: 'Doctors Portal', email: 'hello@doctors-portal.test' },
  stamp: new Date(Date.UTC(2025, 11, 20, 8, 30, 0)),
};

/** Content lines after unfolding (RFC 5545 3.1). */
function unfold(ics: string): string[] {
  return ics
    .replace(/\r\n[ \t]/g, '')
    .split('\r\n')
    .slice(0, -1);
}

/** Checks the structure a calendar client relies on; returns the unfolded lines. */
function expectValidCalendar(ics: string): string[] {
  expect(ics.endsWith('\r\n')).toBe(true);
  expect(ics.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/); // CRLF only, no bare CR or LF
  for (const physical of ics.split('\r\n')) {
    expect(Buffer.byteLength(physical, 'utf8')).toBeLessThanOrEqual(75);
  }
  const lines = unfold(ics);
  const stack: string[] = [];
  for (const line of lines) {
    expect(line).toMatch(/^[A-Z][A-Z0-9-]*(;[A-Z0-9-]+=("[^"]*"|[^";:,]*))*:/);
    if (line.startsWith('BEGIN:')) stack.push(line.slice(6));
    if (line.startsWith('END:')) expect(stack.pop()).toBe(line.slice(4));
  }
  expect(stack).toEqual([]);
  expect(lines[0]).toBe('BEGIN:VCALENDAR');
  expect(lines.at(-1)).toBe('END:VCALENDAR');
  for (const name of ['VERSION:2.0', 'PRODID:', 'BEGIN:VEVENT', 'UID:', 'DTSTAMP:']) {
    expect(lines.some((line) => line.startsWith(name))).toBe(true);
  }
  // Every TZID used has its VTIMEZONE.
  const used = new Set([...ics.matchAll(/;TZID=([^:;]+)/g)].map((match) => match[1]));
  for (const zone of used) expect(lines).toContain(`TZID:${zone}`);
  return lines;
}

/** The observances of the VTIMEZONE as {kind, start, from, to}. */
function observances(lines: string[]) {
  const list: Array<{ kind: string; start: string; from: string; to: string }> = [];
  let current: { kind: string; start: string; from: string; to: string } | undefined;
  for (const line of lines) {
    const [name, value = ''] = line.split(/:(.*)/s);
    if (name === 'BEGIN' && (value === 'STANDARD' || value === 'DAYLIGHT')) {
      current = { kind: value, start: '', from: '', to: '' };
    } else if (current && name === 'DTSTART') current.start = value;
    else if (current && name === 'TZOFFSETFROM') current.from = value;
    else if (current && name === 'TZOFFSETTO') current.to = value;
    else if (current && name === 'END') {
      list.push(current);
      current = undefined;
    }
  }
  return list;
}

describe('escapeText', () => {
  it('escapes backslash, semicolon, comma and line breaks', () => {
    expect(escapeText('a\\b;c,d\ne\r\nf')).toBe('a\\\\b\\;c\\,d\\ne\\nf');
  });
});

describe('foldLine', () => {
  it('leaves a short line alone', () => {
    expect(foldLine('SUMMARY:Teeth Cleaning')).toBe('SUMMARY:Teeth Cleaning');
  });

  it('folds at 75 octets without splitting a UTF-8 character, and unfolds to the same line', () => {
    const line = `DESCRIPTION:${'Zahnärztliche Behandlung – 歯のクリーニング 😁 '.repeat(8)}`;
    const folded = foldLine(line);
    const physical = folded.split('\r\n');
    expect(physical.length).toBeGreaterThan(1);
    for (const [index, part] of physical.entries()) {
      expect(Buffer.byteLength(part, 'utf8')).toBeLessThanOrEqual(75);
      if (index > 0) expect(part.startsWith(' ')).toBe(true);
      expect(part).not.toContain('\uFFFD');
    }
    expect(folded.replace(/\r\n /g, '')).toBe(line);
  });

  it('never separates a backslash from the character it escapes', () => {
    for (let length = 60; length < 80; length++) {
      const line = `DESCRIPTION:${'a'.repeat(length - 12)}${escapeText(',;,;\n,')}`;
      for (const part of foldLine(line).split('\r\n')) {
        expect(part.replace(/\\\\/g, '')).not.toMatch(/\\$/);
      }
    }
  });
});

describe('buildCalendar', () => {
  it('writes a valid VCALENDAR with the times in the clinic zone', () => {
    const ics = buildCalendar(event);
    const lines = expectValidCalendar(ics);
    expect(lines).toContain('METHOD:PUBLISH');
    expect(lines).toContain('DTSTART;TZID=America/New_York:20260105T100000');
    expect(lines).toContain('DTEND;TZID=America/New_York:20260105T103000');
    expect(lines).toContain('DTSTAMP:20251220T083000Z');
    expect(lines).toContain('UID:booking-42@doctors-portal.test');
    expect(lines).toContain('SUMMARY:Teeth Cleaning at Doctors Portal');
    expect(lines).toContain('LOCATION:Doctors Portal\\, 120 Harbor Street\\, Springfield');
    expect(lines).toContain(
      'DESCRIPTION:Teeth Cleaning for Jane Doe\\nJan 5\\, 2026\\, 10:00 AM - 10:30 AM',
    );
    expect(lines).toContain('ORGANIZER;CN=Doctors Portal:mailto:hello@doctors-portal.test');
  });

  it("describes New York's daylight saving changes around the date", () => {
    const list = observances(expectValidCalendar(buildCalendar(event)));
    expect(list[0]).toEqual({
      kind: 'STANDARD',
      start: '20250101T000000',
      from: '-0500',
      to: '-0500',
    });
    expect(list).toContainEqual({
      kind: 'DAYLIGHT',
      start: '20260308T020000',
      from: '-0500',
      to: '-0400',
    });
    expect(list).toContainEqual({
      kind: 'STANDARD',
      start: '20261101T020000',
      from: '-0400',
      to: '-0500',
    });
    // 2025, 2026 and 2027 each change twice.
    expect(list).toHaveLength(7);
  });

  it('handles a zone without daylight saving and one in the southern hemisphere', () => {
    const tokyo = observances(
      expectValidCalendar(buildCalendar({ ...event, timeZone: 'Asia/Tokyo' })),
    );
    expect(tokyo).toEqual([
      { kind: 'STANDARD', start: '20250101T000000', from: '+0900', to: '+0900' },
    ]);
    const sydney = observances(
      expectValidCalendar(buildCalendar({ ...event, timeZone: 'Australia/Sydney' })),
    );
    expect(sydney[0]).toMatchObject({ kind: 'DAYLIGHT', to: '+1100' });
    expect(sydney).toContainEqual({
      kind: 'STANDARD',
      start: '20260405T030000',
      from: '+1100',
      to: '+1000',
    });
  });

  it('puts an end at or before the start on the next day', () => {
    const lines = unfold(
      buildCalendar({ ...event, startMinutes: 23 * 60 + 30, endMinutes: 30, method: 'REQUEST' }),
    );
    expect(lines).toContain('METHOD:REQUEST');
    expect(lines).toContain('DTSTART;TZID=America/New_York:20260105T233000');
    expect(lines).toContain('DTEND;TZID=America/New_York:20260106T003000');
  });

  it('keeps user text from breaking out of its property', () => {
    const lines = expectValidCalendar(
      buildCalendar({
        ...event,
        summary: 'Cleaning\r\nATTENDEE:mailto:evil@example.com',
        organizer: { name: 'Smile "Dental"; Co: Ltd', email: 'hello@doctors-portal.test' },
      }),
    );
    expect(lines).toContain('SUMMARY:Cleaning\\nATTENDEE:mailto:evil@example.com');
    expect(lines.some((line) => line.startsWith('ATTENDEE'))).toBe(false);
    expect(lines).toContain(
      'ORGANIZER;CN="Smile Dental; Co: Ltd":mailto:hello@doctors-portal.test',
    );
  });
});
