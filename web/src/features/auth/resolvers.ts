import { loginSchema, signUpSchema } from '@doctors-portal/contract';
import { zodResolver } from '@hookform/resolvers/zod';

/**
 * The login and sign-up forms' checks, in a module of their own that the forms import on their
 * first check (auth-form.tsx, `resolverOnDemand`): those pages are prerendered, and taking them
 * over does not wait on evaluating zod and the contract's schemas.
 */
export const loginResolver = zodResolver(loginSchema);
export const signUpResolver = zodResolver(signUpSchema);
