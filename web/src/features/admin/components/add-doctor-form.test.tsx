import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '../../../test/fetch-stub';
import { patient, signIn } from '../../../test/fixtures';
import { renderInPortal } from '../../../test/render';
import { AddDoctorForm } from './add-doctor-form';
import { PHOTO_UNREADABLE } from './doctor-photo';

beforeEach(() => {
  const api = stubApi({ 'GET /api/service': { body: [{ _id: 's-1', name: 'Teeth Whitening' }] } });
  signIn(api, patient, { admin: true });
  vi.stubGlobal(
    'URL',
    Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:photo'), revokeObjectURL: vi.fn() }),
  );
});

describe("the add-doctor form's photo", () => {
  it('says at once that a file which is no image will not do, with no preview', async () => {
    renderInPortal(<AddDoctorForm />);
    // Picked with the file dialog's 'All files': the input's `accept` is only a hint.
    fireEvent.change(screen.getByLabelText('Photo'), {
      target: {
        files: [new File(['minutes of the meeting'], 'notes.txt', { type: 'text/plain' })],
      },
    });
    expect(await screen.findByText('Choose a JPEG, PNG or WebP image.')).toBeVisible();
    expect(screen.queryByRole('img', { name: /^Preview/ })).not.toBeInTheDocument();
  });

  it('says so, instead of a broken preview, when an image-typed file cannot be drawn', async () => {
    const { user } = renderInPortal(<AddDoctorForm />);
    await user.upload(
      screen.getByLabelText('Photo'),
      new File(['not really a png'], 'photo.png', { type: 'image/png' }),
    );
    fireEvent.error(await screen.findByRole('img', { name: 'Preview of photo.png' }));
    expect(await screen.findByText(PHOTO_UNREADABLE)).toBeVisible();
    expect(screen.queryByRole('img', { name: /^Preview/ })).not.toBeInTheDocument();
  });

  it('previews a photo it can draw', async () => {
    const { user } = renderInPortal(<AddDoctorForm />);
    await user.upload(
      screen.getByLabelText('Photo'),
      new File([new Uint8Array([137, 80, 78, 71])], 'ana.png', { type: 'image/png' }),
    );
    expect(await screen.findByRole('img', { name: 'Preview of ana.png' })).toHaveAttribute(
      'src',
      'blob:photo',
    );
    expect(screen.queryByText(PHOTO_UNREADABLE)).not.toBeInTheDocument();
  });
});

describe("the add-doctor form's specialty", () => {
  it('starts on the first of the clinic’s services, as the spec’s drop-down of them does', async () => {
    renderInPortal(<AddDoctorForm />);
    const specialty = screen.getByLabelText('Select Specialty');
    await waitFor(() => expect(specialty).toHaveValue('Teeth Whitening'));
    expect(specialty).toBeEnabled();
  });
});
