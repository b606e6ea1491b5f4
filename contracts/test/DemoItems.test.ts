import { expect } from "chai";
import { ethers } from "hardhat";
import { loadFixture } from "@nomicfoundation/hardhat-toolbox/network-helpers";
import { ZeroAddress, id } from "ethers";

import { DemoItem721__factory, DemoItems1155__factory } from "@raffle/chain";

async function demoItemsFixture() {
  const [admin, alice] = await ethers.getSigners();
  const sword = await new DemoItem721__factory(admin).deploy(admin.address);
  const potions = await new DemoItems1155__factory(admin).deploy(admin.address);
  return { admin, alice, sword, potions };
}

/** A `data:application/json;base64,` URI's document, and its image's SVG text. */
function decode(uri: string): { name: string; description: string; image: string; svg: string } {
  const prefix = "data:application/json;base64,";
  expect(uri.startsWith(prefix)).to.equal(true);
  const document = JSON.parse(Buffer.from(uri.slice(prefix.length), "base64").toString("utf8"));
  const imagePrefix = "data:image/svg+xml;base64,";
  expect(document.image.startsWith(imagePrefix)).to.equal(true);
  return { ...document, svg: Buffer.from(document.image.slice(imagePrefix.length), "base64").toString("utf8") };
}

describe("Demo items of the local stack (on-chain metadata)", () => {
  it("DemoItem721 mints swords from id 1 to MINTER_ROLE's choice, each with its name and SVG image as data: URIs", async () => {
    const { alice, sword } = await loadFixture(demoItemsFixture);
    await expect(sword.mint(alice.address)).to.emit(sword, "Transfer").withArgs(ZeroAddress, alice.address, 1n);
    await expect(sword.connect(alice).mint(alice.address))
      .to.be.revertedWithCustomError(sword, "AccessControlUnauthorizedAccount")
      .withArgs(alice.address, id("MINTER_ROLE"));
    const metadata = decode(await sword.tokenURI(1n));
    expect(metadata.name).to.equal("Legendary Sword #1");
    expect(metadata.svg).to.match(/^<svg xmlns='http:\/\/www.w3.org\/2000\/svg'.*Legendary Sword #1<\/text><\/svg>$/);
    // No metadata for a sword that does not exist.
    await expect(sword.tokenURI(2n)).to.be.revertedWithCustomError(sword, "ERC721NonexistentToken").withArgs(2n);
    expect(await sword.supportsInterface("0x5b5e139f")).to.equal(true); // ERC721Metadata
  });

  it("DemoItems1155 mints potion stacks to MINTER_ROLE's choice, every id a potion with its name and SVG image as data: URIs", async () => {
    const { alice, potions } = await loadFixture(demoItemsFixture);
    await expect(potions.mint(alice.address, 1n, 50n)).to.emit(potions, "TransferSingle");
    expect(await potions.balanceOf(alice.address, 1n)).to.equal(50n);
    await expect(potions.connect(alice).mint(alice.address, 1n, 1n))
      .to.be.revertedWithCustomError(potions, "AccessControlUnauthorizedAccount")
      .withArgs(alice.address, id("MINTER_ROLE"));
    const metadata = decode(await potions.uri(1n));
    expect(metadata.name).to.equal("Healing Potion");
    expect(metadata.svg).to.contain(">Healing Potion</text>");
    expect(await potions.supportsInterface("0x0e89341c")).to.equal(true); // ERC1155MetadataURI
  });
});
