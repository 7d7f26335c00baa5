import { doctorFormSchema, messages } from '@doctors-portal/contract';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { type FieldErrors, type Resolver, useForm, useWatch } from 'react-hook-form';
import { toast } from 'react-toastify/unstyled';
import { Field } from '../../../components/form-field';
import { ApiError, SessionEndedError } from '../../../lib/api-client';
import { useAddDoctor } from '../api/add-doctor';
import { servicesQuery } from '../api/get-services';
import { useUploadImage } from '../api/upload-image';
import { doctorFormErrors, hoursOf, PhotoField, SpecialtyField } from './doctor-form-parts';
import {
  DEFAULT_HOURS,
  type DoctorHours,
  DoctorHoursControls,
  extraTreatmentIds,
} from './doctor-hours-fields';
import { PHOTO_MAX_MB, photoProblem } from './doctor-photo';

interface DoctorFormValues extends DoctorHours {
  name: string;
  email: string;
  specialty: string;
  photo: FileList | null;
}

interface DoctorFormOutput extends DoctorHours {
  name: string;
  email: string;
  specialty: string;
  photo: File;
}

const EMPTY: DoctorFormValues = {
  name: '',
  email: '',
  specialty: '',
  photo: null,
  ...DEFAULT_HOURS,
};

/** The shared add-doctor schema for name, email and specialty, the photo's and work days' checks. */
const resolver: Resolver<DoctorFormValues, unknown, DoctorFormOutput> = async (values) => {
  const parsed = doctorFormSchema.safeParse(values);
  const photo = values.photo?.[0];
  const errors: FieldErrors<DoctorFormValues> = doctorFormErrors(
    parsed.error?.issues ?? [],
    ['name', 'email', 'specialty'],
    photoProblem(photo),
    values,
  );
  if (!parsed.success || !photo || Object.keys(errors).length > 0) return { values: {}, errors };
  return { values: { ...parsed.data, photo, ...hoursOf(values) }, errors: {} };
};

type Phase = 'idle' | 'uploading' | 'saving';

/**
 * The add-doctor form (spec sections 2 and 5): name, email, specialty from the clinic's services
 * and a photo; then the other treatments the doctor performs, the weekdays they work (every day
 * unless unticked) and their days off. The specialty starts on the first service, as a drop-down
 * of the services does (the spec names no message for it). Submitting uploads the photo first
 * (`POST /api/image`), then adds the doctor with its URL (`POST /api/doctor`); on success the
 * form empties for the next one.
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
    getValues,
    setValue,
    control,
    formState: { errors },
  } = useForm<DoctorFormValues, unknown, DoctorFormOutput>({ resolver, defaultValues: EMPTY });
  const photo = useWatch({ control, name: 'photo' })?.[0];
  const firstService = services.data?.[0]?.name ?? '';
  const blank = (): DoctorFormValues => ({ ...EMPTY, specialty: firstService });
  useEffect(() => {
    if (firstService && !getValues('specialty')) setValue('specialty', firstService);
  }, [firstService, getValues, setValue]);

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
        treatmentIds: extraTreatmentIds(doctor, doctor.specialty, services.data ?? []),
        workDays: doctor.workDays,
        daysOff: doctor.daysOff,
      });
      if (!insertedId) {
        toast.error(messages.doctorAddFailed);
        return 'name';
      }
      toast.success(messages.doctorAdded);
      // The browser empties the file input; the form library forgets the values and errors.
      form.current?.reset();
      reset(blank());
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
        <SpecialtyField
          className="sm:col-span-2"
          services={services}
          registration={register('specialty')}
          disabled={working || !services.data}
          error={errors.specialty?.message}
          hint={
            services.isPending
              ? 'Loading the clinic’s services…'
              : serviceList.length === 0 && services.isSuccess
                ? 'The clinic has no services yet.'
                : undefined
          }
          first={
            serviceList.length > 0 ? null : (
              <option value="" disabled>
                {services.isPending ? 'Loading…' : 'No services'}
              </option>
            )
          }
        />
        <PhotoField
          file={photo}
          label="Photo"
          registration={register('photo')}
          error={errors.photo?.message}
          hint={`A JPEG, PNG or WebP image of ${PHOTO_MAX_MB} MB or less. It is shown on the doctor list.`}
        />
        <DoctorHoursControls control={control} services={serviceList} errors={errors} />
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
