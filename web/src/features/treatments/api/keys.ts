/** The query keys of the treatments screen. */
export const treatmentKeys = {
  /** The clinic's catalogue, retired treatments included. */
  all: ['treatments'] as const,
};
