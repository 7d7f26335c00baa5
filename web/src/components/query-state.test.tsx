import { useQuery } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { api as request } from '../lib/api-client';
import { type ApiStub, failure, stubApi } from '../test/fetch-stub';
import { renderInPortal } from '../test/render';
import { QueryState } from './query-state';

function Notes() {
  const notes = useQuery({ queryKey: ['notes'], queryFn: () => request<string[]>('/notes') });
  return (
    <QueryState
      query={notes}
      loading={<p>Loading notes…</p>}
      what="The notes"
      isEmpty={(data) => data.length === 0}
      empty={<p>No notes yet</p>}
    >
      {(data) => (
        <ul>
          {data.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      )}
    </QueryState>
  );
}

let api: ApiStub;
beforeEach(() => {
  api = stubApi();
});

describe('QueryState', () => {
  it('shows the loading state, then the answer', async () => {
    api.on('GET /api/notes', { body: ['Floss'] });
    renderInPortal(<Notes />);
    expect(screen.getByText('Loading notes…')).toBeVisible();
    expect(await screen.findByRole('listitem')).toHaveTextContent('Floss');
  });

  it('shows the empty state for an answer with nothing in it', async () => {
    api.on('GET /api/notes', { body: [] });
    renderInPortal(<Notes />);
    expect(await screen.findByText('No notes yet')).toBeVisible();
  });

  it('says what could not be loaded and why, and asks again on Try again', async () => {
    api.on('GET /api/notes', failure(503, 'The notes are resting.'));
    const { user } = renderInPortal(<Notes />);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The notes could not be loaded. The notes are resting.',
    );
    api.on('GET /api/notes', { body: ['Brush'] });
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('listitem')).toHaveTextContent('Brush');
  });
});
