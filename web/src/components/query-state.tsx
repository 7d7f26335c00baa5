import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { reasonOf, SessionEndedError } from '../lib/api-client';
import { ErrorAlert } from './error-alert';

export interface QueryErrorProps {
  /** What could not be loaded, and the server's reason. */
  message: string;
  onRetry: () => void;
  /** The retry is under way: the button waits. */
  retrying: boolean;
  /** The box around the alert and the button; by default they stack, aligned to the start. */
  className?: string;
  /** A small button beside a table or a field; a regular one under a page-wide list. */
  size?: 'sm' | 'md';
}

/** The error alert box with a 'Try again' button that asks once more. */
export function QueryError({
  message,
  onRetry,
  retrying,
  className = 'flex flex-col items-start gap-3',
  size = 'sm',
}: QueryErrorProps) {
  return (
    <div className={className}>
      <ErrorAlert>{message}</ErrorAlert>
      <button
        type="button"
        className={
          size === 'sm' ? 'btn btn-primary btn-outline btn-sm' : 'btn btn-primary btn-outline'
        }
        onClick={onRetry}
        disabled={retrying}
      >
        Try again
      </button>
    </div>
  );
}

export interface QueryStateProps<T> {
  query: UseQueryResult<T>;
  /** Shown until the first answer arrives (and while an ended session is on its way to login). */
  loading: ReactNode;
  /**
   * What the query loads, as a sentence starts: 'The doctors', 'Your history'. A failure reads
   * '<what> could not be loaded.' and the server's reason.
   */
  what: string;
  /** Whether the answer has nothing to show; `empty` is shown then. */
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  /** The layout of the error block (see QueryError). */
  errorClassName?: string;
  errorSize?: QueryErrorProps['size'];
  children: (data: T) => ReactNode;
}

/**
 * A query's place on screen: the loading state until the first answer, the answer (or `empty`
 * when it holds nothing), or the error with 'Try again'. An answer once shown stays while the
 * query refetches. A session that has ended shows the loading state: the route guards are
 * taking the patient to the login page.
 */
export function QueryState<T>({
  query,
  loading,
  what,
  isEmpty,
  empty,
  errorClassName,
  errorSize,
  children,
}: QueryStateProps<T>) {
  if (query.data !== undefined) {
    return isEmpty?.(query.data) ? empty : children(query.data);
  }
  if (query.isError && !(query.error instanceof SessionEndedError)) {
    return (
      <QueryError
        message={`${what} could not be loaded. ${reasonOf(query.error, 'Please try again.')}`}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
        className={errorClassName}
        size={errorSize}
      />
    );
  }
  return loading;
}
