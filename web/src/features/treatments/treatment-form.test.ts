import { slotErrors, treatmentErrors } from '@doctors-portal/contract';
import { describe, expect, it } from 'vitest';
import { catalogueTreatment } from '../../test/fixtures';
import {
  addGeneratedSlots,
  changesOf,
  formValuesOf,
  parsePrice,
  readTreatmentForm,
  slotLines,
  slotSummary,
  slotsOutsideHours,
} from './treatment-form';

const cleaning = catalogueTreatment({ price: 89.5 });

describe('the treatment form', () => {
  it.each([
    ['80', 80],
    [' $89.50 ', 89.5],
    ['1,200', 1200],
    ['.5', 0.5],
  ])('reads the price %j as %j dollars', (text, dollars) => {
    expect(parsePrice(text)).toBe(dollars);
  });

  it.each([
    ['', treatmentErrors.priceRequired],
    ['eighty', treatmentErrors.priceNotNumber],
    ['-5', treatmentErrors.priceNotNumber],
    ['10.555', treatmentErrors.priceCents],
  ])('explains what is wrong with the price %j', (text, error) => {
    expect(parsePrice(text)).toEqual({ error });
  });

  it('reads the slot times one a line, trimmed, blank lines left out, in order of time', () => {
    expect(slotLines('\n 1:00 PM  -  2:00 PM\n\n9:00 AM - 9:30 AM \n')).toEqual([
      '9:00 AM - 9:30 AM',
      '1:00 PM - 2:00 PM',
    ]);
  });

  it('reads a filled form into what the API takes', () => {
    expect(
      readTreatmentForm({
        name: ' Root Canal ',
        description: 'Saves a tooth.',
        price: '320.50',
        slots: '10:30 AM - 12:00 PM\n9:00 AM - 10:30 AM',
      }),
    ).toEqual({
      treatment: {
        name: 'Root Canal',
        description: 'Saves a tooth.',
        price: 320.5,
        slots: ['9:00 AM - 10:30 AM', '10:30 AM - 12:00 PM'],
      },
    });
  });

  it('gives each wrong field its own message', () => {
    expect(readTreatmentForm({ name: ' ', description: '', price: '0', slots: '' })).toEqual({
      errors: {
        name: treatmentErrors.nameRequired,
        price: treatmentErrors.pricePositive,
        slots: slotErrors.none,
      },
    });
    const overlapping = readTreatmentForm({
      name: 'X',
      description: '',
      price: 'abc',
      slots: '9:00 AM - 10:00 AM\n9:30 AM - 10:30 AM',
    });
    expect(overlapping).toEqual({
      errors: {
        price: treatmentErrors.priceNotNumber,
        slots: slotErrors.overlap('9:00 AM - 10:00 AM', '9:30 AM - 10:30 AM'),
      },
    });
  });

  it('adds generated slots to those listed, none twice, in order', () => {
    expect(
      addGeneratedSlots('1:00 PM - 2:00 PM\n9:00 AM - 9:30 AM', '09:00', '10:00', '30'),
    ).toEqual({ slots: '9:00 AM - 9:30 AM\n9:30 AM - 10:00 AM\n1:00 PM - 2:00 PM' });
    expect(addGeneratedSlots('', '10:00', '09:00', '30')).toEqual({
      error: slotErrors.generatorEnd,
    });
    expect(addGeneratedSlots('', '09:00', '10:00', '')).toEqual({
      error: slotErrors.generatorLength,
    });
  });

  it('sends only what an edit changed', () => {
    const values = formValuesOf(cleaning);
    expect(values.price).toBe('89.50');
    const same = readTreatmentForm(values);
    expect('treatment' in same && changesOf(cleaning, same.treatment)).toEqual({});
    const edited = readTreatmentForm({ ...values, price: '95', slots: '10:00 AM - 10:30 AM' });
    expect('treatment' in edited && changesOf(cleaning, edited.treatment)).toEqual({
      price: 95,
      slots: ['10:00 AM - 10:30 AM'],
    });
  });

  it('sums up the slot times for the table', () => {
    expect(slotSummary(cleaning.slots)).toBe('2 slots, 10:00 AM to 11:00 AM');
    expect(slotSummary(['9:00 AM - 9:30 AM'])).toBe('1 slot, 9:00 AM to 9:30 AM');
  });
});

describe('slotsOutsideHours', () => {
  it('finds none within the opening hours, to the minute', () => {
    expect(slotsOutsideHours('10:00 AM - 10:30 AM\n9:30 PM - 10:00 PM\n')).toEqual([]);
  });

  it('finds the slot times that start before opening or end after closing, earliest first', () => {
    expect(slotsOutsideHours('9:45 PM - 10:15 PM\n10:00 AM - 10:30 AM\n8:00 AM - 8:30 AM')).toEqual(
      ['8:00 AM - 8:30 AM', '9:45 PM - 10:15 PM'],
    );
  });

  it('leaves lines that are not slot times to the form’s own check', () => {
    expect(slotsOutsideHours('soon\n7 AM')).toEqual([]);
  });
});
