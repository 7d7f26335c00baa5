/** The query keys of the Messages screen. */
export const messageKeys = {
  /** Every page of the list: invalidate this after marking a message. */
  all: ['contact-messages'] as const,
  page: (page: number, unreadOnly: boolean) => ['contact-messages', page, unreadOnly] as const,
};
