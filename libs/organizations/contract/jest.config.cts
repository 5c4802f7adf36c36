module.exports = {
  displayName: 'organizations-contract',
  preset: '../../../jest.preset.js',
  coverageDirectory: '../../../coverage/libs/organizations/contract',
};
