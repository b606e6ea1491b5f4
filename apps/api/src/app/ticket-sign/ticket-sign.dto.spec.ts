import { ValidationPipe, type ArgumentMetadata } from "@nestjs/common";

import { VALIDATION_OPTIONS, createValidationPipe } from "../../common/validation";
import { SignTicketBody, acceptsSignTicketBody } from "./ticket-sign.dto";

const ALICE = "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc";
const BOB = "0x976EA74026E726554dB657fA54763abd0C3a0aa9";
const BODY: ArgumentMetadata = { type: "body", metatype: SignTicketBody };

/** Valid bodies and bodies broken one way at a time, as a hostile or careless caller sends them. */
function candidates(): unknown[] {
  const accounts: unknown[] = [
    ALICE,
    ALICE.toLowerCase(),
    `0x${ALICE.slice(2).toUpperCase()}`,
    ALICE.replace("D1a", "d1a"),
    `0x${"0".repeat(40)}`,
    ALICE.slice(0, 41),
    `${ALICE}0`,
    ALICE.slice(2),
    ` ${ALICE}`,
    "",
    null,
    7,
    [ALICE],
    { a: ALICE },
  ];
  const contractIds: unknown[] = [1, 3, 2_147_483_647, 2_147_483_648, 0, -1, 1.5, "3", 3n.toString(), null, Number.NaN, Infinity, 1e300, true, [3]];
  const referrers: unknown[] = [undefined, BOB, BOB.toLowerCase(), `0x${"0".repeat(40)}`, null, "", "0x12", BOB.replace("6EA", "6ea"), 0];
  const bodies: unknown[] = [null, [], "text", 42, [{ account: ALICE, contractId: 1 }]];
  for (const account of accounts) for (const contractId of contractIds) bodies.push({ account, contractId });
  for (const referrer of referrers) bodies.push({ account: ALICE, contractId: 3, referrer });
  bodies.push({ contractId: 3 }, { account: ALICE }, { account: ALICE, contractId: 3, extra: 1 }, { account: ALICE, contractId: 3, constructor: 1 });
  bodies.push(Object.assign(Object.create({ inherited: true }), { account: ALICE, contractId: 3 }));
  return bodies;
}

describe("SignTicketBody fast path", () => {
  const classValidator = new ValidationPipe(VALIDATION_OPTIONS);
  const pipe = createValidationPipe();

  it("accepts only bodies class-validator accepts, and every valid body the fast way", async () => {
    let fast = 0;
    for (const body of candidates()) {
      const accepted = await classValidator.transform(body, BODY).then(
        () => true,
        () => false,
      );
      if (acceptsSignTicketBody(body)) {
        fast += 1;
        expect({ body, accepted }).toEqual({ body, accepted: true });
      } else if (accepted) {
        // What class-validator lets through and the fast path leaves to it: `referrer: null` (IsOptional), and an
        // object whose prototype is not Object's (JSON never makes one).
        const plain = Object.getPrototypeOf(body) === Object.prototype;
        expect({ body, plain, referrer: (body as { referrer?: unknown }).referrer }).toEqual(
          plain ? { body, plain, referrer: null } : { body, plain, referrer: undefined },
        );
      }
    }
    expect(fast).toBeGreaterThanOrEqual(10);
  });

  it("gives the same instance class-validator gives, and leaves the errors to class-validator", async () => {
    const body = { account: ALICE, contractId: 3, referrer: BOB };
    const viaFastPath = await pipe.transform(body, BODY);
    expect(viaFastPath).toBeInstanceOf(SignTicketBody);
    expect(viaFastPath).toEqual(await classValidator.transform({ ...body }, BODY));
    const refusal = await pipe.transform({ account: "0x12", contractId: 0, extra: 1 }, BODY).catch((error: unknown) => error);
    expect(refusal).toMatchObject({ code: "validationFailed" });
    expect(JSON.stringify(refusal)).toContain("extra");
  });

  it("refuses fields named like prototype members, which the fast check runs before", async () => {
    for (const name of ["constructor", "toString", "__defineGetter__"]) {
      const body = JSON.parse(`{"account":"${ALICE}","contractId":3,"${name}":1}`);
      expect(acceptsSignTicketBody(body)).toBe(false);
      const refusal = await pipe.transform(body, BODY).catch((error: unknown) => error);
      expect(refusal).toMatchObject({ code: "validationFailed" });
      expect(JSON.stringify(refusal)).toContain(`property ${name} should not exist`);
    }
  });
});
