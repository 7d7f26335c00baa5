import {
  type Doctor,
  type DoctorUpdate,
  doctorFormSchema,
  formatMediumDate,
  type IsoDate,
  type Service,
} from '@doctors-portal/contract';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { type FieldErrors, type Resolver, useForm, useWatch } from 'react-hook-form';
import { toast } from 'react-toastify/unstyled';
import { Field } from '../../../components/form-field';
import { FormActions, Panel } from '../../../components/panel';
import { ApiError, reasonOf, SessionEndedError } from '../../../lib/api-client';
import { servicesQuery } from '../api/get-services';
import { useUpdateDoctor } from '../api/update-doctor';
import { useUploadImage } from '../api/upload-image';
import { doctorFormErrors, hoursOf, PhotoField, SpecialtyField } from './doctor-form-parts';
import { type DoctorHours, DoctorHoursControls, extraTreatmentIds } from './doctor-hours-fields';
import { PHOTO_MAX_MB, photoProblem } from './doctor-photo';

interface EditValues extends DoctorHours {
  name: string;
  specialty: string;
  /** A new photo; none keeps the stored one. */
  photo: FileList | null;
}

interface EditOutput extends DoctorHours {
  name: string;
  specialty: string;
  photo: File | null;
}

const nameAndSpecialty = doctorFormSchema.pick({ name: true, specialty: true });

/** The add-doctor rules for name and specialty; a photo is checked only when one is chosen. */
const resolver: Resolver<EditValues, unknown, EditOutput> = async (values) => {
  const parsed = nameAndSpecialty.safeParse(values);
  const photo = values.photo?.[0] ?? null;
  const errors: FieldErrors<EditValues> = doctorFormErrors(
    parsed.error?.issues ?? [],
    ['name', 'specialty'],
    photo ? photoProblem(photo) : null,
    values,
  );
  if (!parsed.success || Object.keys(errors).length > 0) return { values: {}, errors };
  return { values: { ...parsed.data, photo, ...hoursOf(values) }, errors: {} };
};

/** The form's first values: the doctor as stored, the specialty's treatment left out of the extras. */
function valuesOf(doctor: Doctor, services: Service[]): EditValues {
  const own = services.find((service) => service.name === doctor.specialty)?._id;
  return {
    name: doctor.name,
    specialty: doctor.specialty,
    photo: null,
    alsoPerforms: doctor.treatmentIds.filter((id) => id !== own),
    workDays: [...doctor.workDays].sort((a, b) => a - b),
    daysOff: [...doctor.daysOff].sort() as IsoDate[],
  };
}

const sameList = <T,>(a: readonly T[], b: readonly T[]) =>
  a.length === b.length && a.every((value, index) => value === b[index]);

/**
 * What `PATCH /api/doctor/{id}` is sent: only what differs from the stored doctor. The treatments
 * are sent when they or the specialty changed (the specialty's own is added by the server).
 */
export function changesOf(
  doctor: Doctor,
  form: Omit<EditOutput, 'photo'>,
  services: Service[],
  image?: string,
): DoctorUpdate {
  const change: DoctorUpdate = {};
  if (form.name.trim() !== doctor.name) change.name = form.name.trim();
  if (form.specialty !== doctor.specialty) change.specialty = form.specialty;
  if (image) change.image = image;
  const before = extraTreatmentIds(valuesOf(doctor, services), doctor.specialty, services);
  const after = extraTreatmentIds(form, form.specialty, services);
  if (change.specialty || !sameList([...before].sort(), [...after].sort())) {
    change.treatmentIds = after;
  }
  const workDays = [...form.workDays].sort((a, b) => a - b);
  if (
    !sameList(
      workDays,
      [...doctor.workDays].sort((a, b) => a - b),
    )
  )
    change.workDays = workDays;
  const daysOff = [...form.daysOff].sort();
  if (!sameList(daysOff, [...doctor.daysOff].sort())) change.daysOff = daysOff;
  return change;
}

/** The fields a 400's issues name, as the form calls them. */
const FIELD_OF: Record<string, keyof EditValues> = {
  name: 'name',
  specialty: 'specialty',
  image: 'photo',
  treatmentIds: 'alsoPerforms',
  workDays: 'workDays',
  daysOff: 'daysOff',
};

export interface EditDoctorFormProps {
  doctor: Doctor;
  /** After it was saved, or the person cancelled. */
  onClose: () => void;
}

/**
 * 'Edit {name}': the doctor's name, specialty, photo (a new one is optional), the other
 * treatments they perform, their work days and days off, saved with `PATCH /api/doctor/{id}`.
 * Errors show beside their fields.
 */
export function EditDoctorForm({ doctor, onClose }: EditDoctorFormProps) {
  const services = useQuery(servicesQuery);
  const serviceList = services.data ?? [];
  const uploadImage = useUploadImage();
  const update = useUpdateDoctor();
  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    control,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<EditValues, unknown, EditOutput>({
    resolver,
    defaultValues: valuesOf(doctor, serviceList),
  });
  const photo = useWatch({ control, name: 'photo' })?.[0];

  // The services arrive after the form: the extras are read again without the specialty's own.
  const loaded = useRef(services.isSuccess);
  useEffect(() => {
    if (services.data && !loaded.current) {
      loaded.current = true;
      reset(valuesOf(doctor, services.data));
    }
  }, [services.data, doctor, reset]);

  useEffect(() => {
    setFocus('name');
  }, [setFocus]);

  const showFailure = (error: unknown) => {
    if (error instanceof SessionEndedError) return;
    if (error instanceof ApiError && error.status === 400) {
      const issues = (error.body as { issues?: Array<{ field: string; message: string }> })?.issues;
      let first: keyof EditValues | null = null;
      for (const issue of issues ?? []) {
        const field = FIELD_OF[issue.field.split('.')[0] ?? ''];
        if (!field) continue;
        setError(field, { type: 'server', message: issue.message });
        first ??= field;
      }
      if (!first && /specialty/i.test(error.message)) {
        setError('specialty', { type: 'server', message: error.message });
      }
      if (!first && /photo|image/i.test(error.message)) {
        setError('photo', { type: 'server', message: error.message });
      }
    }
    toast.error(reasonOf(error, `${doctor.name} could not be saved. Please try again.`));
  };

  const submit = handleSubmit(async (form) => {
    let image: string | undefined;
    if (form.photo) {
      try {
        image = await uploadImage.mutateAsync(form.photo);
      } catch (error) {
        if (error instanceof SessionEndedError) return;
        const message = reasonOf(error, 'The photo could not be uploaded. Try again.');
        setError('photo', { type: 'server', message });
        toast.error(message);
        return;
      }
    }
    const change = changesOf(doctor, form, serviceList, image);
    if (Object.keys(change).length === 0) {
      toast.info(`Nothing to save: ${doctor.name} is unchanged.`);
      onClose();
      return;
    }
    try {
      const saved = await update.mutateAsync({ id: doctor._id, change });
      const [first] = saved.bookings;
      if (!first) toast.success(`Saved ${saved.name}.`);
      else {
        // They stay booked with the doctor: the clinic moves or cancels them from the schedule.
        const count = saved.bookings.length;
        toast.warn(
          `Saved ${saved.name}. ${count} ${count === 1 ? 'booking is' : 'bookings are'} still with them on days they are now away or for treatments they no longer perform, the first on ${formatMediumDate(first.date as IsoDate)}: see the schedule.`,
        );
      }
      onClose();
    } catch (error) {
      showFailure(error);
    }
  });

  const offered = serviceList.some((service) => service.name === doctor.specialty);

  return (
    <Panel title={`Edit ${doctor.name}`}>
      <p className="mt-1 text-sm text-muted">
        {`${doctor.email} stays the doctor’s address. Bookings made already keep the name they were made with.`}
      </p>
      <form onSubmit={submit} noValidate className="mt-5 flex flex-col gap-6">
        <fieldset disabled={isSubmitting} className="grid gap-x-6 gap-y-5 sm:grid-cols-2">
          <legend className="sr-only">{doctor.name}</legend>
          <Field
            label="Name"
            autoComplete="off"
            {...register('name')}
            error={errors.name?.message}
          />
          <SpecialtyField
            services={services}
            registration={register('specialty')}
            disabled={isSubmitting || !services.data}
            error={errors.specialty?.message}
            first={!offered ? <option value={doctor.specialty}>{doctor.specialty}</option> : null}
          />
          <PhotoField
            file={photo}
            current={{ url: doctor.image, alt: `The current photo of ${doctor.name}` }}
            label="New photo (optional)"
            registration={register('photo')}
            error={errors.photo?.message}
            hint={`Leave it empty to keep the current photo. A JPEG, PNG or WebP image of ${PHOTO_MAX_MB} MB or less.`}
          />
          <DoctorHoursControls control={control} services={serviceList} errors={errors} />
        </fieldset>
        <FormActions
          className="border-t border-base-300 pt-5"
          busy={isSubmitting}
          onCancel={onClose}
          submitLabel="Save changes"
        />
      </form>
    </Panel>
  );
}
