import {
  type AvailableDoctor,
  availableDoctorSchema,
  type IsoDate,
  mediumDateField,
} from '@doctors-portal/contract';
import { queryOptions, skipToken } from '@tanstack/react-query';
import { bookingKeys } from '../../../api/booking-keys';
import { api, decodeAnswer } from '../../../lib/api-client';

export interface SlotOfDay {
  treatmentId: string;
  date: IsoDate;
  slot: string;
}

/**
 * `GET /api/doctors/available?treatmentId=…&date={medium date}&slot=…` (public): the doctors who
 * perform the treatment, work that day and are free for the whole slot. None for a treatment no
 * doctor performs (one chair).
 */
export async function getAvailableDoctors(
  { treatmentId, date, slot }: SlotOfDay,
  signal?: AbortSignal,
): Promise<AvailableDoctor[]> {
  const search = new URLSearchParams({ treatmentId, date: mediumDateField.encode(date), slot });
  const answer = await api<unknown>(`/doctors/available?${search}`, { signal, anonymous: true });
  return decodeAnswer(availableDoctorSchema.array(), answer);
}

/** The doctors free for the chosen slot; nothing is asked before a slot is chosen. */
export const availableDoctorsQuery = (treatmentId: string, date: IsoDate, slot: string) =>
  queryOptions({
    queryKey: bookingKeys.availableDoctors(treatmentId, date, slot),
    queryFn: slot
      ? ({ signal }) => getAvailableDoctors({ treatmentId, date, slot }, signal)
      : skipToken,
    staleTime: 15_000,
  });
