import { paths } from '@doctors-portal/contract';
import { useNavigate } from 'react-router';
import { AuthCard } from '../features/auth/components/auth-card';
import { SignupForm } from '../features/auth/components/signup-form';
import { useAuth } from '../lib/auth/auth-provider';

export default function SignupRoute() {
  const auth = useAuth();
  const navigate = useNavigate();
  return (
    <AuthCard title="Sign Up now!" intro="Create your patient account to book treatments online.">
      <SignupForm
        onSignedUp={async () => {
          await auth.refresh();
          navigate(paths.dashboard);
        }}
      />
    </AuthCard>
  );
}
