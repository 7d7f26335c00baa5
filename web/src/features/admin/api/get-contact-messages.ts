import {
  CONTACT_MESSAGES_PAGE_SIZE,
  type ContactMessage,
  contactMessageSchema,
} from '@doctors-portal/contract';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { apiWithHeaders, decodeAnswer } from '../../../lib/api-client';
import { messageKeys } from './contact-message-keys';

export interface MessagesPage {
  messages: ContactMessage[];
  /** How many messages the list holds in all (`X-Total-Count`). */
  total: number;
  /** How many nobody has read yet (`X-Unread-Count`). */
  unread: number;
}

const count = (value: string | null, fallback: number) => {
  const number = Number(value);
  return value !== null && Number.isInteger(number) && number >= 0 ? number : fallback;
};

/**
 * `GET /api/contact-messages?limit=&offset=&unread=` (administrators): one page (0-based) of the
 * Contact Us messages, newest first.
 */
export async function getMessages(
  page: number,
  unreadOnly: boolean,
  signal?: AbortSignal,
): Promise<MessagesPage> {
  const search = new URLSearchParams({
    limit: String(CONTACT_MESSAGES_PAGE_SIZE),
    offset: String(page * CONTACT_MESSAGES_PAGE_SIZE),
  });
  if (unreadOnly) search.set('unread', 'true');
  const { data, headers } = await apiWithHeaders<unknown>(`/contact-messages?${search}`, {
    signal,
  });
  const messages = decodeAnswer(contactMessageSchema.array(), data);
  const shownSoFar = page * CONTACT_MESSAGES_PAGE_SIZE + messages.length;
  return {
    messages,
    total: count(headers.get('x-total-count'), shownSoFar),
    unread: count(
      headers.get('x-unread-count'),
      messages.filter((message) => !message.read).length,
    ),
  };
}

/** A page of messages; it stays on screen while the next one loads, and is read every minute. */
export const messagesQuery = (page: number, unreadOnly: boolean) =>
  queryOptions({
    queryKey: messageKeys.page(page, unreadOnly),
    queryFn: ({ signal }) => getMessages(page, unreadOnly, signal),
    placeholderData: keepPreviousData,
    refetchInterval: 60_000,
  });
