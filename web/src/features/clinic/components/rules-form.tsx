import type { ClinicRules } from '@doctors-portal/contract';
import { type FormEvent, useId, useState } from 'react';
import { toast } from 'react-toastify/unstyled';
import { NumberField } from '../../../components/form-field';
import { SubmitButton } from '../../../components/submit-button';
import { reasonOf, SessionEndedError } from '../../../lib/api-client';
import { useSetRules } from '../api/set-rules';
import {
  checkRules,
  RULE_FIELDS,
  type RulesProblems,
  reminderAfterNotice,
  rulesToValues,
} from '../clinic';

/** The booking rules: five whole numbers, each with its hint and its inline error. */
export function RulesForm({ current }: { current: ClinicRules }) {
  const [values, setValues] = useState(() => rulesToValues(current.rules));
  const [problems, setProblems] = useState<RulesProblems>({});
  const save = useSetRules();
  const headingId = useId();
  const reminderNote = reminderAfterNotice(values);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = checkRules(values);
    if (!checked.ok) {
      setProblems(checked.problems);
      const first = RULE_FIELDS.find((field) => checked.problems[field.name]);
      if (first) document.getElementsByName(first.name)[0]?.focus();
      return;
    }
    setProblems({});
    try {
      await save.mutateAsync(checked.rules);
      toast.success('Booking rules saved.');
    } catch (error) {
      if (error instanceof SessionEndedError) return;
      toast.error(reasonOf(error, 'The booking rules could not be saved. Please try again.'));
    }
  };

  return (
    <section
      aria-labelledby={headingId}
      className="rounded-box border border-base-300 bg-base-100 p-5 shadow-soft"
    >
      <h2 id={headingId} className="heading-3 text-neutral">
        Booking rules
      </h2>
      <p className="mt-1 text-sm text-muted">
        {current.stored
          ? 'The clinic’s own rules. They apply to every booking from now on.'
          : 'These are the defaults the portal was configured with, until you save your own.'}
      </p>
      <form onSubmit={submit} noValidate className="mt-4 grid gap-4 sm:grid-cols-2">
        {RULE_FIELDS.map((field) => (
          <NumberField
            key={field.name}
            name={field.name}
            label={field.label}
            hint={`${field.hint} Default: ${current.defaults[field.name]}.`}
            error={problems[field.name]}
            required
            value={values[field.name]}
            onChange={(event) => {
              setValues({ ...values, [field.name]: event.target.value });
              setProblems({ ...problems, [field.name]: undefined });
            }}
          />
        ))}
        {reminderNote ? (
          <p className="text-sm text-muted sm:col-span-2" role="status">
            {reminderNote}
          </p>
        ) : null}
        <div className="sm:col-span-2">
          <SubmitButton pending={save.isPending} pendingLabel="Saving…">
            Save booking rules
          </SubmitButton>
        </div>
      </form>
    </section>
  );
}
