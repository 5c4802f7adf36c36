module.exports = {
  displayName: 'credentials-contract',
  preset: '../../../jest.preset.js',
  coverageDirectory: '../../../coverage/libs/credentials/contract',
};
