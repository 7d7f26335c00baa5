import { CONTACT_MESSAGES_PAGE_SIZE, type ContactMessage } from '@doctors-portal/contract';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import { toast } from 'react-toastify/unstyled';
import { useClinicTimeZone } from '../../../api/clinic';
import { CardList } from '../../../components/card-list';
import { PageHeading, useScreenHeading } from '../../../components/page-heading';
import { QueryState } from '../../../components/query-state';
import { EmptyState, TableLoading } from '../../../components/responsive-table';
import { ButtonSpinner } from '../../../components/spinner';
import { reasonOf, SessionEndedError } from '../../../lib/api-client';
import { messagesQuery } from '../api/get-contact-messages';
import { useMarkMessage } from '../api/mark-contact-message';
import { pageFrom, usePaging } from './pagination';

const loadingMessages = <TableLoading label="Loading messages…" />;

/** What a message is called in a button's label and a toast: its subject, or who sent it. */
export const messageName = (message: ContactMessage) =>
  message.subject.trim() ? `“${message.subject.trim()}”` : `the message from ${message.email}`;

function receivedAt(iso: string, timeZone: string) {
  return new Intl.DateTimeFormat('en-US', {
    timeZone,
    dateStyle: 'medium',
    timeStyle: 'short',
  }).format(new Date(iso));
}

function Message({
  message,
  timeZone,
  busy,
  onMark,
}: {
  message: ContactMessage;
  timeZone: string;
  busy: boolean;
  onMark: (message: ContactMessage) => void;
}) {
  const titleId = useId();
  return (
    <li>
      <article
        aria-labelledby={titleId}
        className={`rounded-box border bg-base-100 p-4 shadow-soft ${
          message.read ? 'border-base-300' : 'border-primary'
        }`}
      >
        <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2">
          <h2 id={titleId} className="min-w-0 font-semibold text-neutral [overflow-wrap:anywhere]">
            {message.subject.trim() || '(no subject)'}
            {message.read ? null : (
              <span className="badge badge-primary badge-sm ml-2 align-middle">Unread</span>
            )}
          </h2>
          <time dateTime={message.createdAt} className="text-sm text-muted">
            {receivedAt(message.createdAt, timeZone)}
          </time>
        </div>
        <p className="mt-1 text-sm [overflow-wrap:anywhere]">
          <span className="text-muted">From </span>
          <a
            className="link link-primary"
            href={`mailto:${message.email}?subject=${encodeURIComponent(
              `Re: ${message.subject.trim() || 'your message'}`,
            )}`}
          >
            {message.email}
          </a>
        </p>
        <p className="mt-3 whitespace-pre-wrap [overflow-wrap:anywhere]">
          {message.message.trim() || <span className="text-muted">(no message)</span>}
        </p>
        <div className="mt-3 border-t border-base-300 pt-3">
          <button
            type="button"
            className="btn btn-outline btn-primary btn-sm"
            aria-label={`${message.read ? 'Mark as unread' : 'Mark as read'}: ${messageName(message)}`}
            data-mark-message={message._id}
            onClick={() => onMark(message)}
            disabled={busy}
          >
            {busy ? <ButtonSpinner /> : null}
            {message.read ? 'Mark as unread' : 'Mark as read'}
          </button>
        </div>
      </article>
    </li>
  );
}

/**
 * /dashboard/messages (admin): what visitors sent through the landing page's Contact Us form,
 * newest first, each marked read or unread; the list can keep only the unread ones.
 */
export function MessagesPage() {
  const timeZone = useClinicTimeZone();
  const heading = useScreenHeading();
  const [search, setSearch] = useSearchParams();
  const page = pageFrom(search);
  const unreadOnly = search.get('unread') === '1';
  const messages = useQuery(messagesQuery(page, unreadOnly));
  const mark = useMarkMessage();

  const show = (next: { page?: number; unreadOnly?: boolean }) => {
    const nextPage = next.page ?? 0;
    const nextUnread = next.unreadOnly ?? unreadOnly;
    setSearch(
      {
        ...(nextPage > 0 ? { page: String(nextPage + 1) } : {}),
        ...(nextUnread ? { unread: '1' } : {}),
      },
      { preventScrollReset: true },
    );
  };

  const { pastTheEnd, topPages, pages } = usePaging({
    page,
    pageSize: CONTACT_MESSAGES_PAGE_SIZE,
    label: 'Messages',
    total: messages.data?.total,
    settled: !messages.isPlaceholderData,
    goTo: (next) => show({ page: next }),
    heading: heading.ref,
  });

  // After a mark, once the list is read again: the message's button takes the focus back (it was
  // disabled meanwhile, which drops the focus), or the heading when the message left the list.
  const [focusAfter, setFocusAfter] = useState<string | null>(null);
  useEffect(() => {
    if (!focusAfter || mark.isPending || messages.isFetching) return;
    const button = document.querySelector<HTMLButtonElement>(
      `[data-mark-message="${CSS.escape(focusAfter)}"]`,
    );
    (button ?? heading.ref.current)?.focus();
    setFocusAfter(null);
  }, [focusAfter, mark.isPending, messages.isFetching, heading.ref]);

  const toggle = async (message: ContactMessage) => {
    setFocusAfter(null);
    try {
      await mark.mutateAsync({ id: message._id, read: !message.read });
      toast.success(`Marked ${message.read ? 'unread' : 'read'}: ${messageName(message)}.`);
    } catch (error) {
      if (error instanceof SessionEndedError) return;
      toast.error(reasonOf(error, 'The message could not be marked. Please try again.'));
    }
    setFocusAfter(message._id);
  };

  const unread = messages.data?.unread;
  // A page past the end is on its way to the last one.
  const noMessages = pastTheEnd ? (
    loadingMessages
  ) : (
    <EmptyState title={unreadOnly ? 'No unread messages' : 'No messages yet'}>
      {unreadOnly
        ? 'Every message has been read.'
        : 'Messages visitors send through the Contact Us form will be listed here.'}
    </EmptyState>
  );
  return (
    <div className="flex flex-col gap-5">
      <PageHeading
        eyebrow="Administration"
        title="Messages"
        count={unread === undefined ? undefined : `${unread} unread`}
        heading={heading}
      />
      <p className="text-muted">
        What visitors sent through the Contact Us form. Each message was also mailed to the
        clinic&rsquo;s address; reply by email.
      </p>

      <fieldset className="flex flex-wrap items-center gap-3">
        <legend className="sr-only">Which messages</legend>
        <div className="join">
          <button
            type="button"
            className={`btn btn-sm join-item ${unreadOnly ? 'btn-outline btn-primary' : 'btn-primary'}`}
            aria-pressed={!unreadOnly}
            onClick={() => show({ unreadOnly: false })}
          >
            All messages
          </button>
          <button
            type="button"
            className={`btn btn-sm join-item ${unreadOnly ? 'btn-primary' : 'btn-outline btn-primary'}`}
            aria-pressed={unreadOnly}
            onClick={() => show({ unreadOnly: true })}
          >
            Unread only
          </button>
        </div>
      </fieldset>

      <QueryState
        query={messages}
        loading={loadingMessages}
        what="The messages"
        isEmpty={(data) => data.messages.length === 0}
        empty={noMessages}
      >
        {(data) => (
          <>
            <div ref={topPages} className="empty:hidden">
              {pages(data.messages.length, 'top')}
            </div>
            <CardList labelledBy={heading.id} stale={messages.isPlaceholderData}>
              {data.messages.map((message) => (
                <Message
                  key={message._id}
                  message={message}
                  timeZone={timeZone}
                  busy={mark.isPending && mark.variables?.id === message._id}
                  onMark={(chosen) => void toggle(chosen)}
                />
              ))}
            </CardList>
            {pages(data.messages.length, 'bottom')}
          </>
        )}
      </QueryState>
    </div>
  );
}
