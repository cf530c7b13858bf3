import type { CompanyDTO } from "@balcao/shared";

declare module "../../events/bus" {
  interface DomainEvents {
    /**
     * A super user created, changed or deleted a company. Not sent to sockets (spec §7 has no company event);
     * billing and the socket revocation may react (a deleted or deactivated company's sockets must close).
     */
    "companies.created": { company: CompanyDTO };
    "companies.updated": { company: CompanyDTO; previous: CompanyDTO };
    "companies.deleted": { companyName: string };
  }
}

export {};
