import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ApiStub, failure, stubApi } from '../../../test/fetch-stub';
import { renderInPortal } from '../../../test/render';
import { ContactSection } from './contact-section';

let api: ApiStub;
beforeEach(() => {
  api = stubApi({
    'GET /api/clinic': {
      body: {
        name: 'Doctors Portal',
        phone: '+1 (555) 010-2030',
        address: '120 Harbor Street',
        email: 'hello@clinic.test',
        hours: 'h',
        timeZone: 'America/New_York',
      },
    },
    'GET /api/auth/get-session': { body: null },
  });
});
afterEach(() => {
  vi.restoreAllMocks();
});

const thanks =
  'Thank you: your message has reached our front desk. We will answer within one working day.';

describe("the 'Contact Us' form", () => {
  it('sends the message to the clinic, thanks the visitor and empties the form', async () => {
    api.on('POST /api/contact', { status: 201, body: { success: true, message: thanks } });
    const { user } = renderInPortal(<ContactSection />);

    await user.type(screen.getByRole('textbox', { name: 'Email Address' }), 'ana@example.com');
    await user.type(screen.getByRole('textbox', { name: 'Subject' }), 'Whitening');
    await user.type(screen.getByRole('textbox', { name: 'Your Message' }), 'How long?');
    await user.click(screen.getByRole('button', { name: 'Submit' }));

    expect(await screen.findByRole('status')).toHaveTextContent(thanks);
    expect(api.callsTo('POST /api/contact')[0]?.body).toEqual({
      email: 'ana@example.com',
      subject: 'Whitening',
      message: 'How long?',
      website: '',
    });
    // Sent without the visitor's access token: the form is public.
    expect(api.callsTo('POST /api/contact')[0]?.headers.get('authorization')).toBeNull();
    expect(screen.getByRole('textbox', { name: 'Email Address' })).toHaveValue('');
  });

  it('shows the server’s reasons beside their fields, and keeps what was typed', async () => {
    api.on(
      'POST /api/contact',
      failure(400, 'message: Message must be 5000 characters or shorter', {
        issues: [{ field: 'message', message: 'Message must be 5000 characters or shorter' }],
      }),
    );
    const { user } = renderInPortal(<ContactSection />);
    await user.type(screen.getByRole('textbox', { name: 'Email Address' }), 'ana@example.com');
    await user.type(screen.getByRole('textbox', { name: 'Your Message' }), 'Too long');
    await user.click(screen.getByRole('button', { name: 'Submit' }));

    const message = await screen.findByRole('textbox', {
      name: 'Your Message',
      description: 'Message must be 5000 characters or shorter',
    });
    expect(message).toHaveAttribute('aria-invalid', 'true');
    expect(message).toHaveValue('Too long');
    expect(screen.getByRole('status')).toHaveTextContent(
      'Your message was not sent: please check the fields marked below.',
    );
  });

  it('says when to try again after too many messages', async () => {
    const wait =
      'You have sent several messages in a short time. Please wait 15 minutes before sending another, or call us.';
    api.on('POST /api/contact', failure(429, wait));
    const { user } = renderInPortal(<ContactSection />);
    await user.type(screen.getByRole('textbox', { name: 'Email Address' }), 'ana@example.com');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByRole('status')).toHaveTextContent(wait);
  });

  it('keeps its field for bots out of sight, out of the tab order and out of the reading order', () => {
    const { container } = renderInPortal(<ContactSection />);
    const trap = container.querySelector<HTMLInputElement>('input[name="website"]');
    expect(trap).not.toBeNull();
    expect(trap).toHaveAttribute('tabindex', '-1');
    expect(trap?.closest('[aria-hidden="true"]')).not.toBeNull();
    expect(screen.queryByRole('textbox', { name: 'Website' })).toBeNull();
  });
});
