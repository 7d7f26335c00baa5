import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Email } from './email';

describe('Email', () => {
  it('offers a line break before the @ only, keeping the address whole as text', () => {
    const { container } = render(<Email address="jane.doe.with.a.long.name@mail.example.com" />);
    const shown = container.firstElementChild as HTMLElement;
    expect(shown).toHaveTextContent('jane.doe.with.a.long.name@mail.example.com');
    expect(shown.innerHTML).toBe('jane.doe.with.a.long.name<wbr>@mail.example.com');
  });

  it('shows an address without an @ as it is', () => {
    const { container } = render(<Email address="nobody" />);
    expect((container.firstElementChild as HTMLElement).innerHTML).toBe('nobody');
  });
});
