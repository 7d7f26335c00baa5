/**
 * Every on-screen text the product spec fixes, word for word (typos included).
 * Server and web import these so that the wording lives in exactly one place.
 */
export const messages = {
  /** A call made with a session the server no longer honours (401), and the app's notice of it. */
  sessionEnded: 'Please log in again: your session has ended.',
  nameRequired: 'Name is Required',
  emailRequired: 'Email is Required',
  emailInvalid: 'Provide a valid Email',
  passwordRequired: 'Password is Required',
  passwordTooShort: 'Must be 6 characters or longer',
  imageRequired: 'Image is Required',
  forgotPasswordNoEmail: 'Please enter your email address!',
  resetEmailSent: 'Sent email Reset your Password!',
  verificationSent: 'Sent email Verification mail check your inbox/spam!',
  providerErrorPrefix: 'Developer Authority says: ',
  logoutConfirm: 'Are you sure to logout?',
  noSlots: 'No Available slots',
  slotPlaceholder: 'Pick your Ideal Slots',
  phonePlaceholder: 'Current Phone Number',
  agePlaceholder: 'Your up-to-date Age',
  // The spec requires slot, phone and age without wording the messages; these follow its style.
  slotRequired: 'Slot is Required',
  phoneRequired: 'Phone is Required',
  phoneInvalid: 'Provide a valid Phone Number',
  ageRequired: 'Age is Required',
  ageInvalid: 'Age must be a whole number from 0 to 120',
  slotTaken: 'Sorry, someone has just booked this slot. Please pick another one.',
  bookingSet: (date: string, slot: string) => `Appointment is set On: ${date} At ${slot}`,
  bookingConflict: (date: string, slot: string) =>
    `You already have an Appointment On: ${date} At ${slot}`,
  doctorAdded: 'Doctor added successfully',
  doctorAddFailed: 'Doctor adding failed try later!',
  doctorDeleteConfirm: (name: string) => `Are you sure to Delete Doctor: ${name}`,
  doctorDeleted: (name: string) => `${name} is Delete Successfully!`,
  doctorDeleteFailed: 'failed to delete!',
  madeAdmin: 'Successfully made an admin!',
  makeAdminForbidden: 'Without an admin! Let alone Add a admin',
  paymentComplete: 'successfully Payment complete!',
  paymentSaved: 'payment Sent to database',
  paymentConfirmed: 'Your Payment has been confirmed!',
  likeAdded: 'Like added',
  welcome: 'Welcome to our portal.',
} as const;
