import { doctorFormSchema, IMAGE_MAX_BYTES, IMAGE_TYPES, messages } from '@doctors-portal/contract';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { type FieldErrors, type Resolver, useForm, useWatch } from 'react-hook-form';
import { toast } from 'react-toastify/unstyled';
import { Field, SelectField } from '../../../components/form-field';
import { Icon } from '../../../components/icon';
import { QueryError } from '../../../components/query-state';
import { ApiError, SessionEndedError } from '../../../lib/api-client';
import { useAddDoctor } from '../api/add-doctor';
import { servicesQuery } from '../api/get-services';
import { useUploadImage } from '../api/upload-image';

interface DoctorFormValues {
  name: string;
  email: string;
  specialty: string;
  photo: FileList | null;
}

interface DoctorFormOutput {
  name: string;
  email: string;
  specialty: string;
  photo: File;
}

const EMPTY: DoctorFormValues = { name: '', email: '', specialty: '', photo: null };
const ACCEPT = IMAGE_TYPES.join(',');
const MAX_MB = IMAGE_MAX_BYTES / (1024 * 1024);

/** What is wrong with the chosen photo, checked before it is sent; the server checks again. */
function photoProblem(file: File | undefined): string | null {
  if (!file) return messages.imageRequired;
  if (!(IMAGE_TYPES as readonly string[]).includes(file.type)) {
    return 'Choose a JPEG, PNG or WebP image.';
  }
  if (file.size === 0) return 'This file is empty. Choose another photo.';
  if (file.size > IMAGE_MAX_BYTES) {
    const size = (file.size / (1024 * 1024)).toFixed(1);
    return `This photo is ${size} MB. Choose one of ${MAX_MB} MB or less.`;
  }
  return null;
}

/** The shared add-doctor schema for name, email and specialty, plus the photo's checks. */
const resolver: Resolver<DoctorFormValues, unknown, DoctorFormOutput> = async (values) => {
  const errors: FieldErrors<DoctorFormValues> = {};
  const parsed = doctorFormSchema.safeParse(values);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0];
      if (field === 'name' || field === 'email' || field === 'specialty') {
        errors[field] ??= { type: issue.code, message: issue.message };
      }
    }
  }
  const photo = values.photo?.[0];
  const problem = photoProblem(photo);
  if (problem) errors.photo = { type: 'validate', message: problem };
  if (!parsed.success || problem || !photo) return { values: {}, errors };
  return { values: { ...parsed.data, photo }, errors: {} };
};

/** A local address for previewing the chosen photo, released when it changes. */
function usePreview(file: File | undefined) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file || !(IMAGE_TYPES as readonly string[]).includes(file.type)) {
      setUrl(null);
      return;
    }
    const objectUrl = URL.createObjectURL(file);
    setUrl(objectUrl);
    return () => URL.revokeObjectURL(objectUrl);
  }, [file]);
  return url;
}

function PhotoIcon() {
  return (
    <Icon className="size-8" strokeWidth={1.6}>
      <circle cx="12" cy="8.5" r="3.5" />
      <path d="M5 20a7 7 0 0 1 14 0" />
    </Icon>
  );
}

type Phase = 'idle' | 'uploading' | 'saving';

/**
 * The add-doctor form (spec sections 2 and 5): name, email, specialty from the clinic's services
 * and a photo. Submitting uploads the photo first (`POST /api/image`), then adds the doctor with
 * its URL (`POST /api/doctor`); on success the form empties for the next one.
 */
export function AddDoctorForm() {
  const services = useQuery(servicesQuery);
  const uploadImage = useUploadImage();
  const addDoctor = useAddDoctor();
  const form = useRef<HTMLFormElement>(null);
  const [phase, setPhase] = useState<Phase>('idle');
  const {
    register,
    handleSubmit,
    reset,
    setError,
    setFocus,
    control,
    formState: { errors },
  } = useForm<DoctorFormValues, unknown, DoctorFormOutput>({ resolver, defaultValues: EMPTY });
  const photo = useWatch({ control, name: 'photo' })?.[0];
  const preview = usePreview(photo);

  /** Uploads the photo, then adds the doctor; answers the field to put the focus on after. */
  const save = async (doctor: DoctorFormOutput): Promise<keyof DoctorFormValues> => {
    let image: string;
    try {
      image = await uploadImage.mutateAsync(doctor.photo);
    } catch (error) {
      if (error instanceof SessionEndedError) return 'photo';
      const message =
        error instanceof Error ? error.message : 'The photo could not be uploaded. Try again.';
      setError('photo', { type: 'server', message });
      toast.error(message);
      return 'photo';
    }
    setPhase('saving');
    try {
      const { insertedId } = await addDoctor.mutateAsync({
        name: doctor.name,
        email: doctor.email,
        specialty: doctor.specialty,
        image,
      });
      if (!insertedId) {
        toast.error(messages.doctorAddFailed);
        return 'name';
      }
      toast.success(messages.doctorAdded);
      // The browser empties the file input; the form library forgets the values and errors.
      form.current?.reset();
      reset(EMPTY);
      return 'name';
    } catch (error) {
      if (error instanceof SessionEndedError) return 'name';
      if (error instanceof ApiError && error.status === 409) {
        // A doctor with this email exists already: the server says so.
        toast.error(error.message);
        setError('email', { type: 'server', message: error.message });
        return 'email';
      }
      toast.error(error instanceof ApiError ? error.message : messages.doctorAddFailed);
      return 'name';
    }
  };

  const submit = handleSubmit(async (doctor) => {
    setPhase('uploading');
    const next = await save(doctor);
    // The fields are enabled again before the focus moves to one of them.
    flushSync(() => setPhase('idle'));
    setFocus(next);
  });

  const working = phase !== 'idle';
  const serviceList = services.data ?? [];

  return (
    <form ref={form} onSubmit={submit} noValidate className="flex flex-col gap-6">
      <fieldset disabled={working} className="grid gap-x-6 gap-y-5 sm:grid-cols-2">
        <legend className="sr-only">The new doctor</legend>
        <Field label="Name" autoComplete="off" {...register('name')} error={errors.name?.message} />
        <Field
          label="Email"
          type="email"
          autoComplete="off"
          spellCheck={false}
          {...register('email')}
          error={errors.email?.message}
        />
        <div className="sm:col-span-2">
          <SelectField
            label="Select Specialty"
            {...register('specialty')}
            disabled={working || !services.data}
            error={errors.specialty?.message}
            hint={
              services.isPending
                ? 'Loading the clinic’s services…'
                : serviceList.length === 0 && services.isSuccess
                  ? 'The clinic has no services yet.'
                  : undefined
            }
          >
            <option value="" disabled>
              {services.isPending ? 'Loading…' : 'Choose one of the clinic’s services'}
            </option>
            {serviceList.map((service) => (
              <option key={service._id} value={service.name}>
                {service.name}
              </option>
            ))}
          </SelectField>
          {services.isError ? (
            <QueryError
              message={`The specialties could not be loaded. ${services.error.message}`}
              onRetry={() => void services.refetch()}
              retrying={services.isFetching}
              className="mt-3 flex flex-wrap items-center gap-3"
            />
          ) : null}
        </div>
        <div className="flex flex-col gap-4 sm:col-span-2 sm:flex-row sm:items-start">
          <div
            className="flex size-24 shrink-0 items-center justify-center overflow-hidden rounded-full border border-base-300 bg-mint text-primary max-sm:self-center"
            aria-live="polite"
          >
            {preview ? (
              <img
                src={preview}
                alt={photo ? `Preview of ${photo.name}` : 'Preview'}
                className="size-full object-cover"
              />
            ) : (
              <PhotoIcon />
            )}
          </div>
          <div className="min-w-0 flex-1">
            <Field
              label="Photo"
              type="file"
              accept={ACCEPT}
              {...register('photo')}
              error={errors.photo?.message}
              hint={`A JPEG, PNG or WebP image of ${MAX_MB} MB or less. It is shown on the doctor list.`}
            />
          </div>
        </div>
      </fieldset>
      <div className="flex flex-col-reverse gap-3 border-t border-base-300 pt-5 sm:flex-row sm:items-center sm:justify-end">
        <button type="submit" className="btn btn-primary sm:min-w-40" disabled={working}>
          {working ? (
            <>
              <span className="loading loading-spinner loading-sm" aria-hidden="true" />
              {phase === 'uploading' ? 'Uploading photo…' : 'Adding doctor…'}
            </>
          ) : (
            'Add Doctor'
          )}
        </button>
      </div>
    </form>
  );
}
