import { messages } from '@doctors-portal/contract';
import { useId, useState } from 'react';
import { Icon } from '../../../components/icon';

type Choice = 'accepted' | 'denied';

/** The banner's buttons, in their order; either one dismisses it. */
const CHOICES = [
  { choice: 'denied', label: 'Deny', look: 'btn-ghost' },
  { choice: 'accepted', label: 'Accept', look: 'btn-primary' },
] as const;

const storageKey = (email: string) => `doctors-portal.welcome.${email.toLowerCase()}`;

function storedChoice(email: string): Choice | null {
  try {
    const value = window.localStorage.getItem(storageKey(email));
    return value === 'accepted' || value === 'denied' ? value : null;
  } catch {
    return null;
  }
}

function storeChoice(email: string, choice: Choice) {
  try {
    window.localStorage.setItem(storageKey(email), choice);
  } catch {
    // Storage can be unavailable (private mode); the banner then stays away until a reload.
  }
}

/**
 * The spec's welcome banner with its Deny and Accept buttons. The spec shows no behaviour for
 * them: either one dismisses the banner, and the choice is remembered for this patient in this
 * browser, so it does not come back.
 */
export function WelcomeBanner({ email, onDismiss }: { email: string; onDismiss?: () => void }) {
  const [choice, setChoice] = useState<Choice | null>(() => storedChoice(email));
  const textId = useId();
  if (choice) return null;

  const choose = (next: Choice) => {
    storeChoice(email, next);
    setChoice(next);
    onDismiss?.();
  };

  return (
    <div className="alert flex flex-col items-start gap-4 border-primary/20 bg-mint text-base-content shadow-soft sm:flex-row sm:items-center">
      <Icon className="hidden size-8 shrink-0 text-primary sm:block">
        <path d="M12 21s-7.5-4.4-9.3-9.2C1.4 8.3 3.6 4.5 7.3 4.5c2 0 3.4 1 4.7 2.7 1.3-1.7 2.7-2.7 4.7-2.7 3.7 0 5.9 3.8 4.6 7.3C19.5 16.6 12 21 12 21z" />
      </Icon>
      <div id={textId} className="flex-1">
        <p className="font-display text-lg font-semibold text-neutral">{messages.welcome}</p>
        <p className="text-sm text-muted">
          Your appointments, payments and visit history, all in one place.
        </p>
      </div>
      <div className="flex gap-2 self-stretch sm:self-auto">
        {CHOICES.map(({ choice, label, look }) => (
          <button
            key={choice}
            type="button"
            className={`btn ${look} flex-1 sm:flex-none`}
            aria-describedby={textId}
            onClick={() => choose(choice)}
          >
            {label}
          </button>
        ))}
      </div>
    </div>
  );
}
