import { type HistoryEntry, historyEntrySchema } from '@doctors-portal/contract';
import { queryOptions } from '@tanstack/react-query';
import { api, decodeAnswer } from '../../../lib/api-client';

/** `GET /api/booking/history`: the signed-in patient's past and cancelled visits, latest first. */
export async function getHistory(signal?: AbortSignal): Promise<HistoryEntry[]> {
  const answer = await api<unknown>('/booking/history', { signal });
  return decodeAnswer(historyEntrySchema.array(), answer);
}

export const historyQuery = (email: string) =>
  queryOptions({
    queryKey: ['history', email],
    queryFn: ({ signal }) => getHistory(signal),
  });
