import type { IsoDate } from '@doctors-portal/contract';
import { act, renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useMove } from './move-fields';

describe("a move's day and time", () => {
  it('starts on the day given with no time, and says when another day is picked', () => {
    const onDayChange = vi.fn();
    const { result } = renderHook(() => useMove('2026-03-02' as IsoDate, onDayChange));
    expect(result.current).toMatchObject({ date: '2026-03-02', slot: '' });

    act(() => result.current.fields.onSlot('09.00 AM - 09.30 AM'));
    expect(result.current.slot).toBe('09.00 AM - 09.30 AM');
    expect(onDayChange).not.toHaveBeenCalled();

    act(() => result.current.fields.onDate('2026-03-03' as IsoDate));
    expect(result.current.fields.date).toBe('2026-03-03');
    expect(onDayChange).toHaveBeenCalledTimes(1);
  });

  it('starts again on a day with no time picked', () => {
    const { result } = renderHook(() => useMove(null, () => {}));
    act(() => result.current.fields.onSlot('10.00 AM - 10.30 AM'));
    act(() => result.current.restart('2026-04-01' as IsoDate));
    expect(result.current).toMatchObject({ date: '2026-04-01', slot: '' });
  });
});
